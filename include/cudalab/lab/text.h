/* Part of cudalab/lab.h, the one header exercises include: text: formatting
 * numbers and messages. */
#ifndef CUDALAB_LAB_TEXT_H
#define CUDALAB_LAB_TEXT_H

#include "base.h"

namespace lab {
namespace {

/* ------------------------------------------------------------------ text */

/* printf into a std::string. */
inline std::string fmt(const char* f, ...) LAB_PRINTF(1, 2);
inline std::string fmt(const char* f, ...)
{
    va_list ap;
    va_start(ap, f);
    char small[256];
    int len = vsnprintf(small, sizeof small, f, ap);
    va_end(ap);
    if (len < 0)
        return std::string();
    if ((size_t)len < sizeof small)
        return std::string(small, (size_t)len);
    std::string s((size_t)len + 1, '\0');
    va_start(ap, f);
    vsnprintf(&s[0], s.size(), f, ap);
    va_end(ap);
    s.resize((size_t)len);
    return s;
}

/* A double as text that reads back as the same double ("nan", "inf" and
 * "-inf" for the values JSON cannot hold).  digits > 0 forces %.{digits}g,
 * which is how float values (9 digits round-trip) are shown. */
inline std::string number_text(double v, int digits = 0)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    if (digits > 0)
        return fmt("%.*g", digits, v);
    std::string s = fmt("%.15g", v);
    if (strtod(s.c_str(), nullptr) != v)
        s = fmt("%.17g", v);
    return s;
}
} /* namespace */
} /* namespace lab */

#endif
