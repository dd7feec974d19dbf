// qatdoctor-cli faq list|show|search|validate : the FAQ knowledge base from the terminal.
#include <filesystem>
#include <iostream>
#include <system_error>

#include "app/cli/args.h"
#include "app/cli/cli_command.h"
#include "app/cli/faq_dir.h"
#include "core/faq/faq_base.h"
#include "core/faq/faq_search.h"

#ifndef QATDOCTOR_SOURCE_DATA_DIR
#define QATDOCTOR_SOURCE_DATA_DIR ""
#endif

namespace qatdoctor::cli {
namespace {

namespace faq = core::faq;

constexpr const char* kUsage =
    "Usage: qatdoctor-cli faq list [--lang zh|en]\n"
    "       qatdoctor-cli faq show TOPIC_ID [--lang zh|en]\n"
    "       qatdoctor-cli faq search TEXT... [--lang zh|en]\n"
    "       qatdoctor-cli faq validate [DIR]\n\n"
    "  list       categories and their topics, most common symptoms first\n"
    "  show       one topic's decision tree: questions, answers, results\n"
    "  search     full-text search (titles, symptoms, keywords, causes, advice; zh and en)\n"
    "  validate   check the FAQ trees; exit 2 with one line per problem (file: pointer: message)\n"
    "  --faq-dir DIR   the folder of NN_*.json trees (default: installed share/qatdoctor/faq,\n"
    "                  else the source tree's faq/)\n"
    "  --lang zh|en    language of the texts (default en)\n";

void printTopicLine(std::ostream& out, const faq::Topic& t, core::Lang lang)
{
    out << "  " << t.id << "  [" << t.popularity << "]  " << t.symptom.in(lang) << " - " << t.title.in(lang)
        << "\n";
}

void printList(std::ostream& out, const faq::FaqBase& base, core::Lang lang)
{
    for (const faq::Category& c : base.categories()) {
        out << c.title.in(lang) << " (" << c.id << ")\n";
        for (const faq::Topic* t : base.topicsOf(c)) printTopicLine(out, *t, lang);
    }
}

void printTexts(std::ostream& out, const char* heading, const std::vector<core::Text>& texts, core::Lang lang)
{
    if (texts.empty()) return;
    out << "    " << heading << ":\n";
    for (size_t i = 0; i < texts.size(); ++i) out << "      " << i + 1 << ". " << texts[i].in(lang) << "\n";
}

void printNode(std::ostream& out, const faq::Node& n, core::Lang lang)
{
    if (!n.isResult()) {
        out << "  [" << n.id << "] ? " << n.text.in(lang);
        if (!n.autoCheck.empty()) out << "   (auto: " << n.autoCheck << ")";
        out << "\n";
        for (const faq::Answer& a : n.answers) {
            out << "      - " << a.label.in(lang) << " -> " << a.next;
            if (a.autoMark != faq::AutoMark::None)
                out << "   (" << (a.autoMark == faq::AutoMark::Found ? "found" : "clear") << ")";
            out << "\n";
        }
        return;
    }
    out << "  [" << n.id << "] = " << n.title.in(lang) << "\n";
    printTexts(out, lang == core::Lang::Zh ? "可能原因" : "Causes", n.causes, lang);
    printTexts(out, lang == core::Lang::Zh ? "优先排查" : "Check first", n.checks, lang);
    printTexts(out, lang == core::Lang::Zh ? "处理建议" : "Advice", n.advice, lang);
    for (const faq::CodeBlock& c : n.code) {
        out << "    code (" << c.language << "): " << c.title.in(lang) << "\n";
        size_t start = 0;
        while (start <= c.text.size()) {
            const size_t end = c.text.find('\n', start);
            out << "      | "
                << c.text.substr(start, end == std::string::npos ? std::string::npos : end - start) << "\n";
            if (end == std::string::npos) break;
            start = end + 1;
        }
    }
    if (!n.related.empty()) {
        out << "    see also:";
        for (const std::string& r : n.related) out << " " << r;
        out << "\n";
    }
    for (const faq::Reference& r : n.references)
        out << "    reference: " << r.name.in(lang) << (r.topic.empty() ? "" : " -> " + r.topic) << "\n";
}

int showTopic(std::ostream& out, const faq::Topic& t, core::Lang lang)
{
    out << t.id << ": " << t.title.in(lang) << "\n"
        << "source: " << t.source.file << " #" << t.source.heading << "\n"
        << "start: " << t.start << "\n\n";
    for (const faq::Node& n : t.nodes) printNode(out, n, lang);
    return kExitOk;
}

int runFaq(const std::vector<std::string>& argv, CommandIo io)
{
    Args args(argv, {"lang", "faq-dir"}, {});
    if (!args.ok() || args.positionals().empty()) {
        io.err << "faq: " << (args.ok() ? "no action given" : args.error()) << "\n" << kUsage;
        return kExitUsage;
    }
    const std::vector<std::string>& pos = args.positionals();
    const std::string& action = pos[0];
    const core::Lang lang = core::parseLang(args.value("lang").value_or("en"));
    std::string dir = args.value("faq-dir").value_or("");
    if (action == "validate" && pos.size() > 1) dir = pos[1];
    if (dir.empty()) dir = defaultFaqDir();

    faq::FaqLoad load = faq::FaqBase::loadDirectory(dir);
    if (action == "validate") {
        for (const core::Error& e : load.errors) io.out << e.toString() << "\n";
        if (!load.errors.empty()) {
            io.err << "faq validate: " << load.errors.size() << " problem(s) in " << dir << "\n";
            return kExitUsage;
        }
        size_t nodes = 0, autos = 0;
        for (const faq::Topic& t : load.base.topics()) {
            nodes += t.nodes.size();
            for (const faq::Node& n : t.nodes) autos += !n.autoCheck.empty();
        }
        io.out << "OK: " << load.fileCount << " files, " << load.base.categories().size() << " categories, "
               << load.base.topics().size() << " topics, " << nodes << " nodes, " << autos
               << " auto questions\n";
        return kExitOk;
    }
    // The other actions use what loaded; problems are reported but don't hide the rest.
    for (const core::Error& e : load.errors) io.err << "warning: " << e.toString() << "\n";
    if (load.base.empty()) {
        io.err << "faq: no FAQ topics in " << dir << " (use --faq-dir)\n";
        return kExitUsage;
    }
    if (action == "list") {
        printList(io.out, load.base, lang);
        return kExitOk;
    }
    if (action == "show" && pos.size() == 2) {
        const faq::Topic* t = load.base.topic(pos[1]);
        if (!t) {
            io.err << "faq show: no topic '" << pos[1] << "' (see 'faq list')\n";
            return kExitUsage;
        }
        return showTopic(io.out, *t, lang);
    }
    if (action == "search" && pos.size() >= 2) {
        std::string query;
        for (size_t i = 1; i < pos.size(); ++i) query += (i > 1 ? " " : "") + pos[i];
        const std::vector<faq::SearchHit> hits = faq::searchFaq(load.base, query, lang);
        for (const faq::SearchHit& h : hits) {
            io.out << h.topic->id << "  " << h.topic->title.in(lang) << "\n";
            if (!h.titleHit) io.out << "    (" << h.field << ") " << h.snippet << "\n";
        }
        if (hits.empty()) io.out << "no match for '" << query << "'\n";
        return kExitOk;
    }
    io.err << "faq: bad action or arguments\n" << kUsage;
    return kExitUsage;
}

}  // namespace

Command faqCommand()
{
    return {"faq", "browse, search and validate the FAQ knowledge base", kUsage, runFaq};
}

}  // namespace qatdoctor::cli
