/* Part of cudalab/lab.h, the one header exercises include: JSON: the writer
 * of the result object. */
#ifndef CUDALAB_LAB_JSON_H
#define CUDALAB_LAB_JSON_H

#include "base.h"
#include "text.h"

namespace lab {
namespace {

/* ----------------------------------------------------------------- JSON */

/* A small JSON writer: commas and escaping are its business; numbers that
 * are not finite come out as null. */
class Json {
public:
    Json& begin_object() { return open('{'); }
    Json& end_object() { return close('}'); }
    Json& begin_array() { return open('['); }
    Json& end_array() { return close(']'); }

    Json& key(const char* k)
    {
        comma();
        quote(k);
        out_ += ':';
        after_key_ = true;
        return *this;
    }
    Json& str(const std::string& s)
    {
        comma();
        quote(s.c_str());
        return *this;
    }
    Json& num(double v, int digits = 0)
    {
        comma();
        out_ += std::isfinite(v) ? number_text(v, digits) : "null";
        return *this;
    }
    Json& integer(long long v)
    {
        comma();
        out_ += fmt("%lld", v);
        return *this;
    }
    Json& boolean(bool b)
    {
        comma();
        out_ += b ? "true" : "false";
        return *this;
    }
    Json& null()
    {
        comma();
        out_ += "null";
        return *this;
    }
    const std::string& text() const { return out_; }

private:
    std::string out_;
    std::vector<bool> first_; /* per open container: nothing written yet */
    bool after_key_ = false;

    void comma()
    {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (!first_.empty()) {
            if (!first_.back())
                out_ += ',';
            first_.back() = false;
        }
    }
    Json& open(char c)
    {
        comma();
        out_ += c;
        first_.push_back(true);
        return *this;
    }
    Json& close(char c)
    {
        out_ += c;
        if (!first_.empty())
            first_.pop_back();
        return *this;
    }
    /* Length of the valid UTF-8 sequence at s, 0 when it is not valid. */
    static size_t utf8_len(const unsigned char* s)
    {
        size_t len;
        uint32_t cp;
        if (s[0] < 0x80)
            return 1;
        if ((s[0] & 0xe0) == 0xc0) {
            len = 2;
            cp = s[0] & 0x1f;
        } else if ((s[0] & 0xf0) == 0xe0) {
            len = 3;
            cp = s[0] & 0x0f;
        } else if ((s[0] & 0xf8) == 0xf0) {
            len = 4;
            cp = s[0] & 0x07;
        } else {
            return 0;
        }
        for (size_t i = 1; i < len; i++) {
            if ((s[i] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i] & 0x3f);
        }
        static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        return len;
    }
    /* Escapes quotes, backslashes and control characters; a byte that does
     * not start valid UTF-8 becomes U+FFFD so the output always parses. */
    void quote(const char* s)
    {
        out_ += '"';
        const unsigned char* p = (const unsigned char*)s;
        while (*p) {
            unsigned char c = *p;
            switch (c) {
            case '"': out_ += "\\\""; p++; continue;
            case '\\': out_ += "\\\\"; p++; continue;
            case '\b': out_ += "\\b"; p++; continue;
            case '\f': out_ += "\\f"; p++; continue;
            case '\n': out_ += "\\n"; p++; continue;
            case '\r': out_ += "\\r"; p++; continue;
            case '\t': out_ += "\\t"; p++; continue;
            default: break;
            }
            if (c < 0x20 || c == 0x7f) {
                out_ += fmt("\\u%04x", c);
                p++;
                continue;
            }
            size_t len = utf8_len(p);
            if (len == 0) {
                out_ += "\\ufffd";
                p++;
                continue;
            }
            out_.append((const char*)p, len);
            p += len;
        }
        out_ += '"';
    }
};
} /* namespace */
} /* namespace lab */

#endif
