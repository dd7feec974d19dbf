#include "core/checkpoint/pickle_vm.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <unordered_map>

namespace qatdoctor::core::checkpoint {
namespace {

using Kind = PyNode::Kind;

class Machine {
public:
    Machine(std::string_view bytes, const std::string& label, const PickleLimits& limits)
        : m_in(bytes), m_label(label), m_limits(limits)
    {
        m_tree.nodes.emplace_back();  // node 0: None, the default of an empty stack
    }

    Result<PickleTree> run();

private:
    Error fail(const std::string& what, const char* code = "checkpoint.pickle") const
    {
        Error e{code, m_label + ": " + what + " at byte " + std::to_string(m_opAt), m_label};
        e.offset = static_cast<int64_t>(m_opAt);
        return e;
    }

    bool need(size_t n) const { return m_pos + n <= m_in.size(); }
    template <class T>
    bool readLe(T& v)
    {
        if (!need(sizeof(T))) return false;
        std::memcpy(&v, m_in.data() + m_pos, sizeof(T));  // little-endian hosts only (x86-64, arm64)
        m_pos += sizeof(T);
        return true;
    }
    bool readBytes(size_t n, std::string_view& out)
    {
        if (!need(n)) return false;
        out = m_in.substr(m_pos, n);
        m_pos += n;
        return true;
    }
    bool readLine(std::string_view& out)
    {
        const size_t nl = m_in.find('\n', m_pos);
        if (nl == std::string_view::npos) return false;
        out = m_in.substr(m_pos, nl - m_pos);
        m_pos = nl + 1;
        return true;
    }

    Result<NodeId> make(PyNode n)
    {
        if (m_tree.nodes.size() >= m_limits.maxNodes)
            return fail("more than " + std::to_string(m_limits.maxNodes) + " values");
        const uint64_t bytes = sizeof(PyNode) + n.text.size() + n.text2.size();
        if (m_limits.budget && !m_limits.budget->take(bytes))
            return fail(m_limits.budget->refusal(
                            n.text.size() > 4096 ? "a string of " + std::to_string(n.text.size()) + " bytes"
                                                 : "value " + std::to_string(m_tree.nodes.size()),
                            bytes),
                        "checkpoint.budget");
        m_tree.nodes.push_back(std::move(n));
        return static_cast<NodeId>(m_tree.nodes.size() - 1);
    }
    Result<void> push(NodeId id)
    {
        if (m_stack.size() >= m_limits.maxStack)
            return fail("stack deeper than " + std::to_string(m_limits.maxStack));
        m_stack.push_back(id);
        return {};
    }
    Result<void> pushNew(PyNode n)
    {
        Result<NodeId> id = make(std::move(n));
        if (!id) return id.error();
        return push(*id);
    }
    Result<NodeId> pop()
    {
        if (m_stack.size() <= markBase()) return fail("stack underflow");
        const NodeId id = m_stack.back();
        m_stack.pop_back();
        return id;
    }
    size_t markBase() const { return m_marks.empty() ? 0 : m_marks.back(); }
    // The values since the last MARK, which is removed.
    Result<std::vector<NodeId>> popMark()
    {
        if (m_marks.empty()) return fail("no MARK to pop to");
        const size_t base = m_marks.back();
        m_marks.pop_back();
        std::vector<NodeId> out(m_stack.begin() + static_cast<std::ptrdiff_t>(base), m_stack.end());
        m_stack.resize(base);
        return out;
    }
    Result<NodeId> top()
    {
        if (m_stack.size() <= markBase()) return fail("stack underflow");
        return m_stack.back();
    }
    Result<void> memoPut(uint64_t key)
    {
        Result<NodeId> t = top();
        if (!t) return t.error();
        if (m_memo.size() >= m_limits.maxMemo && !m_memo.count(key)) return fail("memo larger than allowed");
        m_memo[key] = *t;
        return {};
    }
    Result<void> memoGet(uint64_t key)
    {
        const auto it = m_memo.find(key);
        if (it == m_memo.end()) return fail("memo key " + std::to_string(key) + " not defined");
        return push(it->second);
    }
    Result<void> global(std::string module, std::string name)
    {
        m_tree.globals.emplace(std::pair(module, name), GlobalUse::Named);
        PyNode n;
        n.kind = Kind::Global;
        n.text = std::move(module);
        n.text2 = std::move(name);
        return pushNew(std::move(n));
    }
    // REDUCE / NEWOBJ: an OrderedDict or dict becomes a dict; any other callable is kept with its
    // arguments, never called. Python 3 pickles a dict's items as SETITEMS after the call; Python 2
    // passed them as its argument, a list of [key, value] pairs (the torch checkpoints of 2017).
    Result<void> call(NodeId callable, NodeId args, GlobalUse use)
    {
        noteUse(callable, args, use);
        const PyNode& c = m_tree.nodes[callable];
        if (c.kind == Kind::Global &&
            ((c.text == "collections" && c.text2 == "OrderedDict") ||
             (c.text == "builtins" && c.text2 == "dict") || (c.text == "__builtin__" && c.text2 == "dict"))) {
            PyNode d;
            d.kind = Kind::Dict;
            d.items = pairsOfArgument(args);
            return pushNew(std::move(d));
        }
        PyNode n;
        n.kind = Kind::Call;
        n.items = {callable, args};
        return pushNew(std::move(n));
    }
    // What loading would do with a called or constructed global: copyreg's reconstructor builds
    // the class it is given, which is constructed, not called.
    void noteUse(NodeId callable, NodeId args, GlobalUse use)
    {
        const PyNode& c = m_tree.nodes[callable];
        if (c.kind != Kind::Global) return;
        if (isReconstructor(c.text, c.text2)) {
            use = GlobalUse::Constructed;
            const PyNode& a = m_tree.nodes[args];
            if (a.kind == Kind::Tuple && !a.items.empty()) noteUse(a.items[0], 0, GlobalUse::Constructed);
        }
        GlobalUse& u = m_tree.globals[{c.text, c.text2}];
        u = std::max(u, use);
    }
    // The key, value ids of a dict built from one argument that lists [key, value] pairs; none when
    // the argument is anything else.
    std::vector<NodeId> pairsOfArgument(NodeId args) const
    {
        std::vector<NodeId> kv;
        const PyNode& a = m_tree.nodes[args];
        if (a.kind != Kind::Tuple || a.items.size() != 1) return kv;
        const PyNode& list = m_tree.nodes[a.items[0]];
        if (list.kind != Kind::List && list.kind != Kind::Tuple) return kv;
        for (NodeId p : list.items) {
            const PyNode& pair = m_tree.nodes[p];
            if ((pair.kind != Kind::List && pair.kind != Kind::Tuple) || pair.items.size() != 2) return {};
            kv.insert(kv.end(), pair.items.begin(), pair.items.end());
        }
        return kv;
    }
    Result<void> setItems(NodeId target, const std::vector<NodeId>& kv)
    {
        if (kv.size() % 2 != 0) return fail("odd number of values for SETITEMS");
        PyNode& t = m_tree.nodes[target];
        auto& into = t.kind == Kind::Dict ? t.items : t.extra;
        into.insert(into.end(), kv.begin(), kv.end());
        return {};
    }
    Result<void> append(NodeId target, const std::vector<NodeId>& values)
    {
        PyNode& t = m_tree.nodes[target];
        auto& into = (t.kind == Kind::List || t.kind == Kind::Set) ? t.items : t.extra;
        into.insert(into.end(), values.begin(), values.end());
        return {};
    }
    Result<void> tuple(std::vector<NodeId> items)
    {
        PyNode n;
        n.kind = Kind::Tuple;
        n.items = std::move(items);
        return pushNew(std::move(n));
    }
    Result<void> tupleOf(size_t k)
    {
        if (m_stack.size() < markBase() + k) return fail("stack underflow");
        std::vector<NodeId> items(m_stack.end() - static_cast<std::ptrdiff_t>(k), m_stack.end());
        m_stack.resize(m_stack.size() - k);
        return tuple(std::move(items));
    }
    Result<void> scalarInt(int64_t v)
    {
        PyNode n;
        n.kind = Kind::Int;
        n.i = v;
        return pushNew(std::move(n));
    }
    Result<void> text(Kind kind, std::string_view s)
    {
        PyNode n;
        n.kind = kind;
        n.text.assign(s);
        return pushNew(std::move(n));
    }
    // LONG1 / LONG4: two's-complement little-endian; beyond 64 bits kept as hex text.
    Result<void> longBytes(std::string_view b)
    {
        if (b.size() <= 8) {
            uint64_t u = 0;
            for (size_t k = 0; k < b.size(); ++k)
                u |= static_cast<uint64_t>(static_cast<uint8_t>(b[k])) << (8 * k);
            if (!b.empty() && b.size() < 8 && (static_cast<uint8_t>(b.back()) & 0x80))
                u |= ~uint64_t{0} << (8 * b.size());  // sign-extend
            return scalarInt(static_cast<int64_t>(u));
        }
        std::string hex = "0x";
        static const char* kDigits = "0123456789abcdef";
        for (size_t k = b.size(); k-- > 0;) {
            hex += kDigits[static_cast<uint8_t>(b[k]) >> 4];
            hex += kDigits[static_cast<uint8_t>(b[k]) & 15];
        }
        return text(Kind::Str, hex);
    }
    Result<void> step(uint8_t op);

    std::string_view m_in;
    std::string m_label;
    PickleLimits m_limits;
    size_t m_pos = 0;
    size_t m_opAt = 0;
    PickleTree m_tree;
    std::vector<NodeId> m_stack;
    std::vector<size_t> m_marks;
    std::unordered_map<uint64_t, NodeId> m_memo;
    bool m_stopped = false;
};

Result<void> Machine::step(uint8_t op)
{
    auto truncated = [&] { return fail("stream ends inside an opcode", "checkpoint.truncated"); };
    switch (op) {
        case 0x80: {  // PROTO
            uint8_t v;
            if (!readLe(v)) return truncated();
            if (v > 5) return fail("pickle protocol " + std::to_string(v) + " is not known");
            return {};
        }
        case 0x95: {  // FRAME: a length hint only
            uint64_t n;
            if (!readLe(n)) return truncated();
            return {};
        }
        case '.':  // STOP
            m_stopped = true;
            return {};
        case '(':  // MARK
            if (m_marks.size() >= m_limits.maxMarks) return fail("too many nested MARKs");
            m_marks.push_back(m_stack.size());
            return {};
        case '0': {  // POP
            if (m_stack.size() > markBase()) {
                m_stack.pop_back();
                return {};
            }
            if (m_marks.empty()) return fail("stack underflow");
            m_marks.pop_back();  // POP of a mark: as CPython does
            return {};
        }
        case '1': {  // POP_MARK
            Result<std::vector<NodeId>> v = popMark();
            if (!v) return v.error();
            return {};
        }
        case '2': {  // DUP
            Result<NodeId> t = top();
            if (!t) return t.error();
            return push(*t);
        }
        case 'N':
            return push(0);
        case 0x88:
        case 0x89: {  // NEWTRUE / NEWFALSE
            PyNode n;
            n.kind = Kind::Bool;
            n.i = op == 0x88;
            return pushNew(std::move(n));
        }
        case 'J': {
            int32_t v;
            if (!readLe(v)) return truncated();
            return scalarInt(v);
        }
        case 'K': {
            uint8_t v;
            if (!readLe(v)) return truncated();
            return scalarInt(v);
        }
        case 'M': {
            uint16_t v;
            if (!readLe(v)) return truncated();
            return scalarInt(v);
        }
        case 0x8a: {  // LONG1
            uint8_t n;
            std::string_view b;
            if (!readLe(n) || !readBytes(n, b)) return truncated();
            return longBytes(b);
        }
        case 0x8b: {  // LONG4
            int32_t n;
            std::string_view b;
            if (!readLe(n) || n < 0 || !readBytes(static_cast<size_t>(n), b)) return truncated();
            return longBytes(b);
        }
        case 'I':
        case 'L': {  // INT / LONG (text): "01"/"00" are True/False in protocol 0
            std::string_view line;
            if (!readLine(line)) return truncated();
            if (!line.empty() && line.back() == 'L') line.remove_suffix(1);
            if (line == "01" || line == "00") {
                PyNode n;
                n.kind = Kind::Bool;
                n.i = line == "01";
                return pushNew(std::move(n));
            }
            try {
                return scalarInt(std::stoll(std::string(line)));
            } catch (...) {
                return text(Kind::Str, line);  // a huge integer: kept as its digits
            }
        }
        case 'G': {  // BINFLOAT: big-endian double
            std::string_view b;
            if (!readBytes(8, b)) return truncated();
            uint64_t u = 0;
            for (char c : b) u = (u << 8) | static_cast<uint8_t>(c);
            PyNode n;
            n.kind = Kind::Float;
            std::memcpy(&n.f, &u, 8);
            return pushNew(std::move(n));
        }
        case 'F': {
            std::string_view line;
            if (!readLine(line)) return truncated();
            PyNode n;
            n.kind = Kind::Float;
            try {
                n.f = std::stod(std::string(line));
            } catch (...) {
                return fail("FLOAT is not a number");
            }
            return pushNew(std::move(n));
        }
        case 'X':
        case 'B':
        case 'T': {  // BINUNICODE / BINBYTES / BINSTRING: 4-byte length
            uint32_t n;
            std::string_view b;
            if (!readLe(n) || !readBytes(n, b)) return truncated();
            return text(op == 'B' ? Kind::Bytes : Kind::Str, b);
        }
        case 0x8c:
        case 'C':
        case 'U': {  // SHORT_BINUNICODE / SHORT_BINBYTES / SHORT_BINSTRING: 1-byte length
            uint8_t n;
            std::string_view b;
            if (!readLe(n) || !readBytes(n, b)) return truncated();
            return text(op == 'C' ? Kind::Bytes : Kind::Str, b);
        }
        case 0x8d:
        case 0x8e:
        case 0x96: {  // BINUNICODE8 / BINBYTES8 / BYTEARRAY8
            uint64_t n;
            std::string_view b;
            if (!readLe(n) || n > m_in.size() || !readBytes(static_cast<size_t>(n), b)) return truncated();
            return text(op == 0x8d ? Kind::Str : Kind::Bytes, b);
        }
        case 'S':
        case 'V': {  // STRING / UNICODE (text, protocol 0): kept as written
            std::string_view line;
            if (!readLine(line)) return truncated();
            if (op == 'S' && line.size() >= 2 && (line.front() == '\'' || line.front() == '"'))
                line = line.substr(1, line.size() - 2);
            return text(Kind::Str, line);
        }
        case '}':
        case ']':
        case 0x8f: {  // EMPTY_DICT / EMPTY_LIST / EMPTY_SET
            PyNode n;
            n.kind = op == '}' ? Kind::Dict : op == ']' ? Kind::List : Kind::Set;
            return pushNew(std::move(n));
        }
        case ')':
            return tuple({});
        case 0x85:
            return tupleOf(1);
        case 0x86:
            return tupleOf(2);
        case 0x87:
            return tupleOf(3);
        case 't':
        case 'l':
        case 'd':
        case 0x91: {  // TUPLE / LIST / DICT / FROZENSET (from MARK)
            Result<std::vector<NodeId>> v = popMark();
            if (!v) return v.error();
            if (op == 't') return tuple(std::move(*v));
            if (op == 'd' && v->size() % 2 != 0) return fail("odd number of values for DICT");
            PyNode n;
            n.kind = op == 'l' ? Kind::List : op == 'd' ? Kind::Dict : Kind::Set;
            n.items = std::move(*v);
            return pushNew(std::move(n));
        }
        case 's': {  // SETITEM
            Result<NodeId> v = pop();
            if (!v) return v.error();
            Result<NodeId> k = pop();
            if (!k) return k.error();
            Result<NodeId> d = top();
            if (!d) return d.error();
            return setItems(*d, {*k, *v});
        }
        case 'u': {  // SETITEMS
            Result<std::vector<NodeId>> kv = popMark();
            if (!kv) return kv.error();
            Result<NodeId> d = top();
            if (!d) return d.error();
            return setItems(*d, *kv);
        }
        case 'a': {  // APPEND
            Result<NodeId> v = pop();
            if (!v) return v.error();
            Result<NodeId> l = top();
            if (!l) return l.error();
            return append(*l, {*v});
        }
        case 'e':
        case 0x90: {  // APPENDS / ADDITEMS
            Result<std::vector<NodeId>> v = popMark();
            if (!v) return v.error();
            Result<NodeId> l = top();
            if (!l) return l.error();
            return append(*l, *v);
        }
        case 'p': {  // PUT (text key)
            std::string_view line;
            if (!readLine(line)) return truncated();
            try {
                return memoPut(std::stoull(std::string(line)));
            } catch (...) {
                return fail("PUT key is not a number");
            }
        }
        case 'g': {
            std::string_view line;
            if (!readLine(line)) return truncated();
            try {
                return memoGet(std::stoull(std::string(line)));
            } catch (...) {
                return fail("GET key is not a number");
            }
        }
        case 'q': {
            uint8_t k;
            if (!readLe(k)) return truncated();
            return memoPut(k);
        }
        case 'r': {
            uint32_t k;
            if (!readLe(k)) return truncated();
            return memoPut(k);
        }
        case 'h': {
            uint8_t k;
            if (!readLe(k)) return truncated();
            return memoGet(k);
        }
        case 'j': {
            uint32_t k;
            if (!readLe(k)) return truncated();
            return memoGet(k);
        }
        case 0x94:  // MEMOIZE
            return memoPut(m_memo.size());
        case 'c':
        case 'i': {  // GLOBAL / INST: "module\nname\n"
            std::string_view module, name;
            if (!readLine(module) || !readLine(name)) return truncated();
            if (op == 'c') return global(std::string(module), std::string(name));
            Result<std::vector<NodeId>> args = popMark();  // INST: class from the text, args from MARK
            if (!args) return args.error();
            Result<void> g = global(std::string(module), std::string(name));
            if (!g) return g;
            Result<NodeId> cls = pop();
            if (!cls) return cls.error();
            Result<void> t = tuple(std::move(*args));
            if (!t) return t;
            Result<NodeId> a = pop();
            if (!a) return a.error();
            return call(*cls, *a, GlobalUse::Called);
        }
        case 0x93: {  // STACK_GLOBAL
            Result<NodeId> name = pop();
            if (!name) return name.error();
            Result<NodeId> module = pop();
            if (!module) return module.error();
            const PyNode& m = m_tree.nodes[*module];
            const PyNode& n = m_tree.nodes[*name];
            if (m.kind != Kind::Str || n.kind != Kind::Str) return fail("STACK_GLOBAL needs two strings");
            return global(m.text, n.text);
        }
        case 'o': {  // OBJ: class and args from MARK
            Result<std::vector<NodeId>> v = popMark();
            if (!v) return v.error();
            if (v->empty()) return fail("OBJ without a class");
            const NodeId cls = v->front();
            v->erase(v->begin());
            Result<void> t = tuple(std::move(*v));
            if (!t) return t;
            Result<NodeId> a = pop();
            if (!a) return a.error();
            return call(cls, *a, GlobalUse::Called);
        }
        case 'R':
        case 0x81: {  // REDUCE / NEWOBJ
            Result<NodeId> args = pop();
            if (!args) return args.error();
            Result<NodeId> callable = pop();
            if (!callable) return callable.error();
            return call(*callable, *args, op == 'R' ? GlobalUse::Called : GlobalUse::Constructed);
        }
        case 0x92: {  // NEWOBJ_EX: cls, args, kwargs
            Result<NodeId> kwargs = pop();
            if (!kwargs) return kwargs.error();
            Result<NodeId> args = pop();
            if (!args) return args.error();
            Result<NodeId> cls = pop();
            if (!cls) return cls.error();
            return call(*cls, *args, GlobalUse::Constructed);
        }
        case 'b': {  // BUILD: the state is kept, never applied by code
            Result<NodeId> state = pop();
            if (!state) return state.error();
            Result<NodeId> obj = top();
            if (!obj) return obj.error();
            PyNode& o = m_tree.nodes[*obj];
            if (*obj == 0) return fail("BUILD on None");
            o.state = *state;
            o.hasState = true;
            return {};
        }
        case 'Q': {  // BINPERSID
            Result<NodeId> pid = pop();
            if (!pid) return pid.error();
            PyNode n;
            n.kind = Kind::PersistentId;
            n.items = {*pid};
            return pushNew(std::move(n));
        }
        case 'P': {  // PERSID (text)
            std::string_view line;
            if (!readLine(line)) return truncated();
            Result<void> t = text(Kind::Str, line);
            if (!t) return t;
            Result<NodeId> pid = pop();
            if (!pid) return pid.error();
            PyNode n;
            n.kind = Kind::PersistentId;
            n.items = {*pid};
            return pushNew(std::move(n));
        }
        case 0x82:
        case 0x83:
        case 0x84: {  // EXT1/2/4: the copyreg extension registry is not consulted
            return fail("extension-registry opcode (EXT) is not supported");
        }
        case 0x97:  // NEXT_BUFFER
        case 0x98:  // READONLY_BUFFER
            return fail("out-of-band buffers are not supported");
        default: {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02x", op);
            return fail(std::string("unknown opcode ") + hex);
        }
    }
}

Result<PickleTree> Machine::run()
{
    while (!m_stopped) {
        m_opAt = m_pos;
        uint8_t op;
        if (!readLe(op)) return fail("stream ends before STOP", "checkpoint.truncated");
        Result<void> r = step(op);
        if (!r) return r.error();
    }
    if (m_stack.empty()) return fail("STOP with an empty stack");
    m_tree.root = m_stack.back();
    m_tree.end = m_pos;
    return std::move(m_tree);
}

}  // namespace

std::pair<std::string_view, std::string_view> PickleTree::callee(NodeId id) const
{
    const PyNode& n = nodes[id];
    if (n.kind != PyNode::Kind::Call || n.items.empty()) return {};
    const PyNode& c = nodes[n.items[0]];
    if (c.kind != PyNode::Kind::Global) return {};
    return {c.text, c.text2};
}

Result<PickleTree> unpickle(std::string_view bytes, const std::string& label, const PickleLimits& limits)
{
    return Machine(bytes, label, limits).run();
}

}  // namespace qatdoctor::core::checkpoint
