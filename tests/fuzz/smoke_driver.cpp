// A main() for the fuzz targets without libFuzzer, so any compiler (gcc in the sanitizer build of
// scripts/test.sh) can smoke-test them: every corpus file once, then a fixed number of
// deterministic mutations of them (bit flips, interesting bytes and tokens, truncation, byte
// insertion and deletion, chunk duplication, splicing two files). A count, not a time, so a run
// does the same work on a loaded machine and a finding reproduces with the same arguments.
// There is no coverage feedback: this finds what is near the fixtures, the libFuzzer runs of
// tests/fuzz/run_fuzz.sh find the rest.
//
// Usage: <target>_smoke [--iterations N] [--seed S] [--max-len BYTES] [--only I] [--trace] PATH...
//   PATH: a corpus folder (read recursively, files in name order) or a file.
//   --only I: run just input number I. --trace: print each input's number before running it
//   (the last one printed is the culprit when a report names none).
// An input that crashes with an ASan report, abort or segfault is written to
// smoke-crash-<number>.bin in the working directory and its number printed; gcc's UBSan ends
// the process without the death callback, so use --trace for those.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#if defined(__has_include)
#if __has_include(<sanitizer/common_interface_defs.h>)
#include <sanitizer/common_interface_defs.h>
#define QATDOCTOR_HAVE_SANITIZER_API 1
#endif
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;

// The input being run, for the crash handlers (which may only use async-signal-safe calls).
const std::string* g_current = nullptr;
long long g_iteration = -1;

void dumpCurrent()
{
    if (!g_current) return;
    char name[64];
    std::snprintf(name, sizeof name, "smoke-crash-%lld.bin", g_iteration);
    const int fd = ::open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        const char* p = g_current->data();
        size_t left = g_current->size();
        while (left > 0) {
            const ssize_t n = ::write(fd, p, left);
            if (n <= 0) break;
            p += n;
            left -= static_cast<size_t>(n);
        }
        ::close(fd);
    }
    char msg[160];
    const int len =
        std::snprintf(msg, sizeof msg, "\nsmoke: input %lld crashed, written to %s (replay: --only %lld)\n",
                      g_iteration, name, g_iteration);
    if (len > 0) (void)!::write(2, msg, static_cast<size_t>(len));
    g_current = nullptr;  // once
}

void onSignal(int sig)
{
    dumpCurrent();
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

// splitmix64: tiny, and the same sequence with every standard library (std::*_distribution
// is not), so an iteration number identifies an input everywhere.
class Rng {
public:
    explicit Rng(uint64_t seed) : m_state(seed) {}
    uint64_t next()
    {
        uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }

private:
    uint64_t m_state;
};

// Values parsers tend to treat specially: sizes, signs, limits, JSON / text structure.
constexpr std::array<std::string_view, 24> kTokens{"0",
                                                   "-1",
                                                   "1",
                                                   "255",
                                                   "65535",
                                                   "4294967295",
                                                   "18446744073709551615",
                                                   "99999999999999999999999",
                                                   "1e308",
                                                   "-1e308",
                                                   "nan",
                                                   "inf",
                                                   "null",
                                                   "{",
                                                   "}",
                                                   "[",
                                                   "]",
                                                   "\"",
                                                   ",",
                                                   ":",
                                                   "\n",
                                                   "\r\n",
                                                   "\t",
                                                   std::string_view("\0\0\0\0", 4)};
constexpr std::array<uint8_t, 10> kBytes{0x00, 0x01, 0x7f, 0x80, 0xff, '0', '9', '\n', '"', '{'};

class Mutator {
public:
    Mutator(const std::vector<std::string>& corpus, size_t maxLen) : m_corpus(corpus), m_maxLen(maxLen) {}

    std::string mutate(Rng& rng) const
    {
        std::string s = m_corpus[rng.below(m_corpus.size())];
        const size_t rounds = 1 + rng.below(4);
        for (size_t r = 0; r < rounds; ++r) mutateOnce(s, rng);
        if (s.size() > m_maxLen) s.resize(m_maxLen);
        return s;
    }

private:
    void mutateOnce(std::string& s, Rng& rng) const
    {
        switch (rng.below(9)) {
            case 0:  // flip one bit
                if (!s.empty()) s[rng.below(s.size())] ^= static_cast<char>(1u << rng.below(8));
                break;
            case 1:  // an interesting byte
                if (!s.empty()) s[rng.below(s.size())] = static_cast<char>(kBytes[rng.below(kBytes.size())]);
                break;
            case 2:  // truncate
                s.resize(rng.below(s.size() + 1));
                break;
            case 3: {  // insert random bytes
                std::string ins(1 + rng.below(8), '\0');
                for (char& c : ins) c = static_cast<char>(rng.next());
                s.insert(rng.below(s.size() + 1), ins);
                break;
            }
            case 4: {  // delete a range
                if (s.empty()) break;
                const size_t at = rng.below(s.size());
                s.erase(at, 1 + rng.below(std::min<size_t>(64, s.size() - at)));
                break;
            }
            case 5: {  // duplicate a chunk somewhere else
                if (s.empty()) break;
                const size_t from = rng.below(s.size());
                const std::string chunk =
                    s.substr(from, 1 + rng.below(std::min<size_t>(256, s.size() - from)));
                s.insert(rng.below(s.size() + 1), chunk);
                break;
            }
            case 6: {  // splice: head of this input, tail of another corpus file
                const std::string& other = m_corpus[rng.below(m_corpus.size())];
                s = s.substr(0, rng.below(s.size() + 1)) + other.substr(rng.below(other.size() + 1));
                break;
            }
            case 7: {  // insert a token
                const std::string_view t = kTokens[rng.below(kTokens.size())];
                s.insert(rng.below(s.size() + 1), t);
                break;
            }
            default: {  // overwrite with a token (a number or bracket where another one was)
                const std::string_view t = kTokens[rng.below(kTokens.size())];
                const size_t at = rng.below(s.size() + 1);
                s.replace(at, std::min(t.size(), s.size() - at), t);
                break;
            }
        }
    }

    const std::vector<std::string>& m_corpus;
    size_t m_maxLen;
};

std::vector<std::string> readCorpus(const std::vector<std::string>& paths, size_t maxLen)
{
    std::vector<fs::path> files;
    for (const std::string& p : paths) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            for (const auto& e : fs::recursive_directory_iterator(p, ec))
                if (e.is_regular_file()) files.push_back(e.path());
        } else if (fs::is_regular_file(p, ec)) {
            files.emplace_back(p);
        } else {
            std::fprintf(stderr, "smoke: no such corpus file or folder: %s\n", p.c_str());
            std::exit(2);
        }
    }
    std::sort(files.begin(), files.end());
    std::vector<std::string> out;
    for (const fs::path& f : files) {
        std::ifstream in(f, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (bytes.size() > maxLen) bytes.resize(maxLen);
        out.push_back(std::move(bytes));
    }
    return out;
}

void runOne(const std::string& input, long long iteration)
{
    g_current = &input;
    g_iteration = iteration;
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
    g_current = nullptr;
}

}  // namespace

int main(int argc, char** argv)
{
    long long iterations = 2000, only = -1;
    bool trace = false;
    uint64_t seed = 1;
    size_t maxLen = 65536;  // as run_fuzz.sh's -max_len
    std::vector<std::string> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "--iterations" && hasValue)
            iterations = std::atoll(argv[++i]);
        else if (a == "--seed" && hasValue)
            seed = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--max-len" && hasValue)
            maxLen = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--only" && hasValue)
            only = std::atoll(argv[++i]);
        else if (a == "--trace")
            trace = true;
        else if (!a.empty() && a[0] == '-') {
            std::fprintf(
                stderr,
                "usage: %s [--iterations N] [--seed S] [--max-len BYTES] [--only I] [--trace] CORPUS...\n",
                argv[0]);
            return 2;
        } else
            paths.emplace_back(a);
    }
    const std::vector<std::string> corpus = readCorpus(paths, maxLen);
    if (corpus.empty()) {
        std::fprintf(stderr, "smoke: empty corpus\n");
        return 2;
    }
    std::signal(SIGABRT, onSignal);
    std::signal(SIGSEGV, onSignal);
    std::signal(SIGFPE, onSignal);
#ifdef QATDOCTOR_HAVE_SANITIZER_API
    __sanitizer_set_death_callback(dumpCurrent);
#endif

    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpuStart = std::clock();
    // Inputs are numbered: 0..corpus-1 the files, then the mutations; each mutation's random
    // stream depends only on the seed and its number, so --only replays it alone.
    const long long total =
        std::max(static_cast<long long>(corpus.size()) + std::max(0LL, iterations), only + 1);
    const Mutator mutator(corpus, maxLen);
    long long ran = 0;
    for (long long i = 0; i < total; ++i) {
        if (only >= 0 && i != only) continue;
        if (trace) std::fprintf(stderr, "input %lld\n", i);
        if (i < static_cast<long long>(corpus.size())) {
            runOne(corpus[static_cast<size_t>(i)], i);
        } else {
            Rng rng(seed * 0x100000001b3ull + static_cast<uint64_t>(i));
            runOne(mutator.mutate(rng), i);
        }
        ++ran;
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    std::printf(
        "smoke: %lld inputs (%zu corpus files, %lld mutations, seed %llu) in %.2f s wall, %.2f s CPU\n", ran,
        corpus.size(), only >= 0 ? 0 : std::max(0LL, iterations), static_cast<unsigned long long>(seed), wall,
        cpu);
    return 0;
}
