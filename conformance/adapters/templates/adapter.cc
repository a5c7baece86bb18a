// adapter.cc FILE: the C++ template of a conformance adapter
// (docs/adapters.md "Adapter kit").  Copy it; replace read_gguf() by a call
// to your reader and to_content() by a mapping of what it returns.  Build
// (from the repository):
//   c++ -std=c++17 -Iinclude -Iconformance/adapters/c adapter.cc YOUR_READER.cc
// Exits: 0 accepted (first stdout line {"reader", "content"}; partial
// content is fine), 1 rejected (your reader's error class: Reject here),
// 77 unsupported, 3 any other exception (std::bad_alloc, a logic_error: a
// crash for the runner).  A signal stays a crash: never catch SIGSEGV.
// ta_exit() flushes stdout.  Type tables: include/tfs/gg_vtypes.def (and
// gg_types.def, st_dtypes.def) through X-macros, never retyped; JSON
// strings: ../c/tfs_adapter.h.
//
// The reader below is a stand-in: a small GGUF reader (header and KVs, no
// tensor infos), the same in every language of the kit (ctest
// test_adapter_template_*).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tfs_adapter.h"

static const char *const READER = "toy-gguf (c++ template)";

struct VType {
    const char *name;
    size_t size;
};
static const std::vector<VType> VTYPES = [] {
    std::vector<VType> v;
#define TFS_GG_VTYPE(ID, VAL, NAME, SIZE)                          \
    if (v.size() <= (VAL)) v.resize((VAL) + 1, VType{nullptr, 0}); \
    v[(VAL)] = VType{NAME, SIZE};
#include "tfs/gg_vtypes.def"
#undef TFS_GG_VTYPE
    return v;
}();

struct Reject : std::runtime_error { // the reader's verdict "invalid file"
    using std::runtime_error::runtime_error;
};

// ---- the stand-in reader (replace by yours) ------------------------------
struct Reader {
    std::vector<unsigned char> d;
    size_t pos = 0;
    std::ostringstream out; // the content, written as the file is read

    const unsigned char *take(uint64_t n) {
        if (n > d.size() - pos) throw Reject("truncated at byte " + std::to_string(pos));
        pos += n;
        return d.data() + pos - n;
    }
    static uint64_t le(const unsigned char *b, size_t size) {
        uint64_t v = 0;
        for (size_t i = size; i-- > 0;) v = v << 8 | b[i];
        return v;
    }
    uint32_t u32() { return uint32_t(le(take(4), 4)); }
    uint64_t u64() { return le(take(8), 8); }
    std::string str(const char *what) {
        uint64_t n = u64();
        const unsigned char *s = take(n);
        for (size_t i = 0; i < n;) {
            size_t l = ta_utf8_len(s + i, size_t(n) - i);
            if (!l) throw Reject(what);
            i += l;
        }
        return std::string(reinterpret_cast<const char *>(s), size_t(n));
    }
    void json_str(const std::string &s) {
        char *buf = nullptr;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        ta_str(f, s.data(), s.size());
        fclose(f);
        out << std::string(buf, len);
        free(buf);
    }
    uint32_t vtype() {
        uint32_t t = u32();
        if (t >= VTYPES.size() || !VTYPES[t].name) throw Reject("invalid value type " + std::to_string(t));
        return t;
    }
    void scalar(uint32_t t) {
        const VType &v = VTYPES[t];
        const unsigned char *b = take(v.size);
        std::string name = v.name;
        uint64_t u = le(b, v.size);
        if (name == "bool") {
            if (b[0] > 1) throw Reject("bool not 0 or 1");
            out << (b[0] ? "true" : "false");
        } else if (name == "f32" || name == "f64") {
            char hex[24];
            snprintf(hex, sizeof hex, "\"0x%0*llx\"", int(v.size * 2), static_cast<unsigned long long>(u));
            out << hex;
        } else if (name[0] == 'i') {
            int bits = int(v.size * 8);
            int64_t s = bits == 64 ? int64_t(u) : int64_t(u ^ (1ull << (bits - 1))) - int64_t(1ull << (bits - 1));
            if (bits == 64)
                out << '"' << s << '"';
            else
                out << s;
        } else if (v.size == 8)
            out << '"' << u << '"';
        else
            out << u;
    }
    static bool is_float(const std::string &n) { return n == "f32" || n == "f64"; }
    void read_gguf() {
        if (std::getenv("TFS_TEMPLATE_SELFTEST") && std::string(std::getenv("TFS_TEMPLATE_SELFTEST")) == "uncaught")
            throw std::logic_error("a bug in the reader"); // not a Reject: a crash
        if (d.size() < 4 || std::memcmp(d.data(), "GGUF", 4)) throw Reject("bad magic");
        take(4);
        uint32_t version = u32();
        if (version != 2 && version != 3) throw Reject("unsupported version " + std::to_string(version));
        uint64_t n_tensors = u64(), n_kv = u64();
        if (n_kv > (d.size() - pos) / 12 || n_tensors > (d.size() - pos) / 24)
            throw Reject("more KVs or tensors than the file can hold");
        out << "{\"format\":\"gguf\",\"version\":" << version << ",\"kv\":[";
        for (uint64_t i = 0; i < n_kv; i++) {
            std::string key = str("key is not UTF-8");
            if (key.empty()) throw Reject("empty key");
            uint32_t t = vtype();
            std::string name = VTYPES[t].name;
            out << (i ? ",{\"key\":" : "{\"key\":");
            json_str(key);
            out << ",\"type\":\"" << name << '"';
            if (name == "string") {
                out << ",\"value\":";
                json_str(str("string value is not UTF-8"));
            } else if (name == "array") {
                uint32_t et = vtype();
                uint64_t n = u64();
                std::string en = VTYPES[et].name;
                if (en == "array") throw Reject("nested array");
                if (n > d.size() - pos) throw Reject("array longer than the file");
                out << ",\"elem_type\":\"" << en << "\",\"" << (is_float(en) ? "bits" : "value") << "\":[";
                for (uint64_t j = 0; j < n; j++) {
                    if (j) out << ',';
                    if (en == "string")
                        json_str(str("string element is not UTF-8"));
                    else
                        scalar(et);
                }
                out << ']';
            } else {
                out << (is_float(name) ? ",\"bits\":" : ",\"value\":");
                scalar(t);
            }
            out << '}';
        }
        out << "]}";
    }
};
// -------------------------------------------------------------------------

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fputs("usage: adapter FILE\n", stderr);
        return 2;
    }
    std::string path = argv[1];
    if (path.size() < 5 || path.compare(path.size() - 5, 5, ".gguf")) ta_exit(TA_UNSUPPORTED);
    try {
        std::ifstream f(path, std::ios::binary);
        if (!f) {
            std::perror(argv[1]);
            return 2;
        }
        Reader r;
        r.d.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
        try {
            r.read_gguf();
        } catch (const Reject &e) { ta_exit(ta_reject(READER, e.what())); }
        std::printf("{\"reader\":\"%s\",\"content\":%s}\n", READER, r.out.str().c_str());
        ta_exit(TA_ACCEPT);
    } catch (const std::exception &e) { // bad_alloc, a bug: a crash, never a verdict
        std::fprintf(stderr, "adapter failed: %s\n", e.what());
        std::fflush(stdout);
        return 3;
    }
}
