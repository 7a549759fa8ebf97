// Herald's view of Debian's ICU (libicu-dev 72, CLDR 42): the few C calls of ICU's stable
// plural-rules and number-formatter API that HeraldPayload's PluralRules needs.
//
// Why the prototypes are written here instead of including <unicode/upluralrules.h>:
// swift-corelibs-foundation ships its own ICU headers as the clang module _FoundationICU,
// and any Swift module that imports Foundation and Debian's ICU headers fails to build
// ("'UErrorCode' has different definitions in different modules", for every ICU enum).
// So this header declares only ICU's functions, over incomplete types of its own, with
// ICU's own renaming macro from <unicode/uvernum.h> (macros only, no types): Debian's
// library exports versioned symbols (`uplrules_open_72`), and the macro names the right
// ones for whichever ICU is installed. The signatures are ICU's C API, stable since ICU
// 4.8 / 64 / 68 (each call below names its header); UErrorCode is an int-sized enum
// (U_ZERO_ERROR = 0, failures > 0), UChar a UTF-16 code unit.
#ifndef HERALD_CICU_SHIM_H
#define HERALD_CICU_SHIM_H

#include <stdint.h>
#include <unicode/uvernum.h>

#define HERALD_ICU(name) U_ICU_ENTRY_POINT_RENAME(name)

/// ICU's UPluralRules, UNumberFormatter, UFormattedNumber and UEnumeration (opaque).
typedef struct HeraldICUPluralRules HeraldICUPluralRules;
typedef struct HeraldICUNumberFormatter HeraldICUNumberFormatter;
typedef struct HeraldICUFormattedNumber HeraldICUFormattedNumber;
typedef struct HeraldICUEnumeration HeraldICUEnumeration;

// <unicode/upluralrules.h>
HeraldICUPluralRules *HERALD_ICU(uplrules_openForType)(const char *locale, int type, int *status);
void HERALD_ICU(uplrules_close)(HeraldICUPluralRules *rules);
int32_t HERALD_ICU(uplrules_select)(const HeraldICUPluralRules *rules, double number, uint16_t *keyword,
                                    int32_t capacity, int *status);
int32_t HERALD_ICU(uplrules_selectFormatted)(const HeraldICUPluralRules *rules, const HeraldICUFormattedNumber *number,
                                             uint16_t *keyword, int32_t capacity, int *status);
HeraldICUEnumeration *HERALD_ICU(uplrules_getKeywords)(const HeraldICUPluralRules *rules, int *status);
// <unicode/uenum.h>
const char *HERALD_ICU(uenum_next)(HeraldICUEnumeration *enumeration, int32_t *length, int *status);
void HERALD_ICU(uenum_close)(HeraldICUEnumeration *enumeration);
// <unicode/unumberformatter.h>
HeraldICUNumberFormatter *HERALD_ICU(unumf_openForSkeletonAndLocale)(const uint16_t *skeleton, int32_t length,
                                                                    const char *locale, int *status);
void HERALD_ICU(unumf_close)(HeraldICUNumberFormatter *formatter);
HeraldICUFormattedNumber *HERALD_ICU(unumf_openResult)(int *status);
void HERALD_ICU(unumf_closeResult)(HeraldICUFormattedNumber *result);
void HERALD_ICU(unumf_formatDecimal)(const HeraldICUNumberFormatter *formatter, const char *value, int32_t length,
                                     HeraldICUFormattedNumber *result, int *status);

/// The cardinal plural rules of a locale (UPLURAL_TYPE_CARDINAL = 0); ICU falls back from
/// the region to the language, then to root (`other` only).
static inline HeraldICUPluralRules *herald_plural_rules_open(const char *locale, int *status) {
    return HERALD_ICU(uplrules_openForType)(locale, 0, status);
}

static inline void herald_plural_rules_close(HeraldICUPluralRules *rules) { HERALD_ICU(uplrules_close)(rules); }

/// The category of an integer given as a double (exact below 2^53; no visible fraction digits).
static inline int32_t herald_plural_select(const HeraldICUPluralRules *rules, double number, uint16_t *keyword,
                                           int32_t capacity, int *status) {
    return HERALD_ICU(uplrules_select)(rules, number, keyword, capacity, status);
}

/// The category keyword (`one`, `few`, …) of a formatted number, operands v/w/f/t/e/c
/// taken from the digits it shows.
static inline int32_t herald_plural_select_formatted(const HeraldICUPluralRules *rules,
                                                     const HeraldICUFormattedNumber *number, uint16_t *keyword,
                                                     int32_t capacity, int *status) {
    return HERALD_ICU(uplrules_selectFormatted)(rules, number, keyword, capacity, status);
}

/// The category keywords a locale uses (an enumeration of `char *`).
static inline HeraldICUEnumeration *herald_plural_keywords(const HeraldICUPluralRules *rules, int *status) {
    return HERALD_ICU(uplrules_getKeywords)(rules, status);
}

static inline const char *herald_enumeration_next(HeraldICUEnumeration *enumeration, int32_t *length, int *status) {
    return HERALD_ICU(uenum_next)(enumeration, length, status);
}

static inline void herald_enumeration_close(HeraldICUEnumeration *enumeration) { HERALD_ICU(uenum_close)(enumeration); }

/// A number formatter from a skeleton (`precision-integer`, `.00`), UTF-16.
static inline HeraldICUNumberFormatter *herald_number_formatter_open(const uint16_t *skeleton, int32_t length,
                                                                    const char *locale, int *status) {
    return HERALD_ICU(unumf_openForSkeletonAndLocale)(skeleton, length, locale, status);
}

static inline void herald_number_formatter_close(HeraldICUNumberFormatter *formatter) {
    HERALD_ICU(unumf_close)(formatter);
}

static inline HeraldICUFormattedNumber *herald_formatted_number_open(int *status) {
    return HERALD_ICU(unumf_openResult)(status);
}

static inline void herald_formatted_number_close(HeraldICUFormattedNumber *result) {
    HERALD_ICU(unumf_closeResult)(result);
}

/// Formats a decimal number given as text (`"12.50"`), exactly, into `result`.
static inline void herald_format_decimal(const HeraldICUNumberFormatter *formatter, const char *value, int32_t length,
                                         HeraldICUFormattedNumber *result, int *status) {
    HERALD_ICU(unumf_formatDecimal)(formatter, value, length, result, status);
}

#endif
