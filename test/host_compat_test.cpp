// The host side that CANN's template library catlass includes and links: securec.h with libc_sec,
// opdev/fp16_t.h and opdev/bfloat16.h, and aclrtGetHardwareSyncAddr.
#include <opdev/bfloat16.h>
#include <opdev/fp16_t.h>
#include <securec.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "support.h"

using namespace canopy_test;
using op::bfloat16;
using op::fp16_t;

extern "C" errno_t canopy_test_c_memcpy_s(void* dest, size_t destMax, const void* src, size_t count);

namespace {
std::string text(const char* buffer) { return std::string(buffer); }
}  // namespace

TEST_CASE("memcpy_s, memmove_s and memset_s check their arguments as libboundscheck does") {
    char dest[8];
    const char src[] = "abcdefgh";
    CHECK(canopy_test_c_memcpy_s(dest, sizeof dest, src, 8) == EOK);
    CHECK(std::memcmp(dest, src, 8) == 0);
    CHECK(canopy_test_c_memcpy_s(dest, sizeof dest, src, 9) == ERANGE_AND_RESET);
    CHECK(std::all_of(dest, dest + 8, [](char c) { return c == 0; }));
    CHECK(canopy_test_c_memcpy_s(nullptr, 8, src, 1) == EINVAL);
    std::memset(dest, 'x', sizeof dest);
    CHECK(canopy_test_c_memcpy_s(dest, sizeof dest, nullptr, 1) == EINVAL_AND_RESET);
    CHECK(dest[0] == 0);
    CHECK(canopy_test_c_memcpy_s(dest, 0, src, 0) == ERANGE);
    char overlapping[8] = "abcdef";
    CHECK(canopy_test_c_memcpy_s(overlapping + 1, 7, overlapping, 4) == EOVERLAP_AND_RESET);
    CHECK(overlapping[1] == 0);

    char moved[8] = "abcdef";
    CHECK(memmove_s(moved + 1, 7, moved, 4) == EOK);
    CHECK(text(moved) == "aabcdf");
    CHECK(memmove_s(moved, 4, moved, 5) == ERANGE_AND_RESET);

    char filled[4] = {1, 2, 3, 4};
    CHECK(memset_s(filled, sizeof filled, 7, 2) == EOK);
    CHECK((filled[0] == 7 && filled[1] == 7 && filled[2] == 3));
    CHECK(memset_s(filled, sizeof filled, 9, 5) == ERANGE_AND_RESET);
    CHECK(std::all_of(filled, filled + 4, [](char c) { return c == 9; }));  // filled up to destMax
    CHECK(memset_s(nullptr, 4, 0, 1) == EINVAL);
    CHECK(memset_s(filled, SECUREC_MEM_MAX_LEN + 1, 0, 1) == ERANGE);
}

TEST_CASE("the string functions copy, append and tokenize within the destination") {
    char dest[6];
    CHECK(strcpy_s(dest, sizeof dest, "hello") == EOK);
    CHECK(text(dest) == "hello");
    CHECK(strcpy_s(dest, sizeof dest, "hello!") == ERANGE_AND_RESET);
    CHECK(text(dest).empty());
    CHECK(strcpy_s(dest, sizeof dest, nullptr) == EINVAL_AND_RESET);
    CHECK(strcpy_s(nullptr, sizeof dest, "a") == EINVAL);

    CHECK(strncpy_s(dest, sizeof dest, "abcdefgh", 3) == EOK);
    CHECK(text(dest) == "abc");
    CHECK(strncpy_s(dest, sizeof dest, "abcdefgh", 6) == ERANGE_AND_RESET);
    CHECK(strncpy_s(dest, sizeof dest, "xyz", 0) == EOK);
    CHECK(text(dest).empty());

    CHECK(strcpy_s(dest, sizeof dest, "ab") == EOK);
    CHECK(strcat_s(dest, sizeof dest, "cde") == EOK);
    CHECK(text(dest) == "abcde");
    CHECK(strcat_s(dest, sizeof dest, "f") == ERANGE_AND_RESET);
    CHECK(text(dest).empty());
    CHECK(strcpy_s(dest, sizeof dest, "ab") == EOK);
    CHECK(strncat_s(dest, sizeof dest, "cdefgh", 2) == EOK);
    CHECK(text(dest) == "abcd");
    char unterminated[3] = {'a', 'b', 'c'};
    CHECK(strcat_s(unterminated, sizeof unterminated, "") == EINVAL_AND_RESET);

    char line[] = ",alpha,,beta;gamma";
    char* context = nullptr;
    std::vector<std::string> tokens;
    for (char* token = strtok_s(line, ",;", &context); token != nullptr; token = strtok_s(nullptr, ",;", &context))
        tokens.emplace_back(token);
    CHECK(tokens == std::vector<std::string>{"alpha", "beta", "gamma"});
    CHECK(strtok_s(line, ",", nullptr) == nullptr);
}

TEST_CASE("the formatted writers bound the output by destMax and count") {
    char dest[8];
    CHECK(sprintf_s(dest, sizeof dest, "%d-%s", 42, "ab") == 5);
    CHECK(text(dest) == "42-ab");
    CHECK(sprintf_s(dest, sizeof dest, "%s", "too long!") == -1);
    CHECK(text(dest).empty());
    CHECK(sprintf_s(dest, 0, "x") == -1);

    // count below destMax: output cut at count stays, as a failure.
    CHECK(snprintf_s(dest, sizeof dest, 3, "%s", "abcdef") == -1);
    CHECK(text(dest) == "abc");
    CHECK(snprintf_s(dest, sizeof dest, 5, "%s", "abc") == 3);
    // count reaching destMax: output that does not fit is cleared...
    CHECK(snprintf_s(dest, sizeof dest, sizeof dest, "%s", "abcdefghij") == -1);
    CHECK(text(dest).empty());
    // ...unless count is (size_t)-1, "as much as fits".
    CHECK(snprintf_s(dest, sizeof dest, static_cast<size_t>(-1), "%s", "abcdefghij") == -1);
    CHECK(text(dest) == "abcdefg");

    CHECK(snprintf_truncated_s(dest, sizeof dest, "%s", "abcdefghij") == 7);
    CHECK(text(dest) == "abcdefg");
    CHECK(snprintf_truncated_s(dest, sizeof dest, "%d", 12) == 2);
}

TEST_CASE("sscanf_s reads each field within the size given after its destination") {
    // catlass's get_cann_version_and_soc_name.cpp: the version after "/cann-" up to the next '/'.
    char version[100] = {0};
    CHECK(sscanf_s("9.0.0/x86_64-linux", "%99[^/]", version, 100) == 1);
    CHECK(text(version) == "9.0.0");
    CHECK(sscanf_s("", "%99[^/]", version, 100) == -1);

    int number = 0;
    char word[4];
    char letter = 0;
    CHECK(sscanf_s("  17 abc z", "%d %s %c", &number, word, 4u, &letter, 1u) == 3);
    CHECK(number == 17);
    CHECK(text(word) == "abc");
    CHECK(letter == 'z');

    // A field longer than its destination ends the scan and leaves an empty string.
    CHECK(sscanf_s("12 hello 5", "%d %s %d", &number, word, 4u, &number) == 1);
    CHECK(text(word).empty());
    CHECK(sscanf_s("abcdef", "%[a-z]", word, 4u) == 0);
    CHECK(sscanf_s("abc-def", "%[a-z]", word, 4u) == 1);
    CHECK(text(word) == "abc");
    // A width below the size reads as many as the width says.
    CHECK(sscanf_s("abcdef", "%2s", word, 4u) == 1);
    CHECK(text(word) == "ab");

    int skipped_to = 0;
    double value = 0;
    CHECK(sscanf_s("x=1.5;rest", "x=%lf;%n", &value, &skipped_to) == 1);
    CHECK(value == 1.5);
    CHECK(skipped_to == 6);
    CHECK(sscanf_s("7 8", "%*d %d", &number) == 1);
    CHECK(number == 8);
    CHECK(sscanf_s("a7", "b%d", &number) == 0);  // a literal that does not match
    CHECK(sscanf_s(nullptr, "%d", &number) == -1);
    CHECK(sscanf_s("1", nullptr) == -1);
}

TEST_CASE("fscanf_s reads a stream the same way") {
    std::FILE* file = std::tmpfile();
    REQUIRE(file != nullptr);
    std::fputs("name=canopy 3\n", file);
    std::rewind(file);
    char name[16];
    int count = 0;
    CHECK(fscanf_s(file, "name=%15s %d", name, 16u, &count) == 2);
    CHECK(text(name) == "canopy");
    CHECK(count == 3);
    CHECK(fscanf_s(file, "%d", &count) == -1);
    std::fclose(file);
}

TEST_CASE("fp16_t converts as an IEEE half, rounding to nearest even") {
    CHECK(fp16_t(1.5f).val == 0x3E00);
    CHECK(static_cast<float>(fp16_t(0.1f)) == 0.0999755859375f);
    CHECK(fp16_t(2049.0f).val == fp16_t(2048.0f).val);  // a tie goes to the even significand
    CHECK(static_cast<float>(fp16_t(2051.0f)) == 2052.0f);
    CHECK(fp16_t(65519.0f).val == 0x7BFF);
    CHECK(fp16_t(65520.0f).val == 0x7C00);
    CHECK(fp16_t(-1e9).val == 0xFC00);
    CHECK(fp16_t(std::numeric_limits<float>::quiet_NaN()).val == 0x7FFF);
    CHECK(fp16_t(std::ldexp(1.0f, -24)).val == 0x0001);
    CHECK(fp16_t(std::ldexp(1.0f, -25)).val == 0x0000);
    CHECK(fp16_t(std::ldexp(3.0f, -25)).val == 0x0002);
    CHECK(fp16_t(std::ldexp(1023.5f, -24)).val == 0x0400);  // rounds up into the smallest normal
    CHECK(static_cast<float>(fp16_t(uint16_t{0x3C00})) == 1.0f);  // fp16_t(uint16_t) takes bits
    fp16_t assigned;
    assigned = uint16_t{3};  // assigning a uint16_t converts its value
    CHECK(static_cast<float>(assigned) == 3.0f);
    CHECK(static_cast<float>(fp16_t(70000)) == std::numeric_limits<float>::infinity());
    CHECK(static_cast<float>(fp16_t(int64_t{-5})) == -5.0f);
    CHECK(static_cast<float>(fp16_t(op::bfloat16(2.5f))) == 2.5f);

    // Every finite half survives the trip through float; NaNs keep their payload.
    for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
        const fp16_t half(static_cast<uint16_t>(bits));
        const float widened = static_cast<float>(half);
        if (FP16_IS_NAN(half.val)) {
            REQUIRE(std::isnan(widened));
            continue;
        }
        REQUIRE(fp16_t(widened).val == half.val);
        REQUIRE(static_cast<double>(half) == static_cast<double>(widened));
    }
}

TEST_CASE("fp16_t converts to integers by rounding to nearest even and saturating") {
    CHECK(static_cast<int32_t>(fp16_t(2.5f)) == 2);
    CHECK(static_cast<int32_t>(fp16_t(3.5f)) == 4);
    CHECK(static_cast<int32_t>(fp16_t(-2.5f)) == -2);
    CHECK(static_cast<int32_t>(fp16_t(2.7f)) == 3);
    CHECK(static_cast<int8_t>(fp16_t(200.0f)) == 127);
    CHECK(static_cast<int8_t>(fp16_t(-200.0f)) == -128);
    CHECK(static_cast<uint8_t>(fp16_t(-1.0f)) == 0);
    CHECK(static_cast<uint8_t>(fp16_t(300.0f)) == 255);
    CHECK(static_cast<int16_t>(fp16_t(60000.0f)) == 32767);
    CHECK(static_cast<uint16_t>(fp16_t(60000.0f)) == 60000);
    CHECK(static_cast<int32_t>(fp16_t(uint16_t{0x7C00})) == std::numeric_limits<int32_t>::max());
    CHECK(static_cast<int32_t>(fp16_t(uint16_t{0xFC00})) == std::numeric_limits<int32_t>::min());
    CHECK(static_cast<uint32_t>(fp16_t(uint16_t{0x7E00})) == std::numeric_limits<uint32_t>::max());
    CHECK(static_cast<int64_t>(fp16_t(-7.0f)) == -7);
    CHECK(static_cast<bool>(fp16_t(uint16_t{0x8000})));  // the bits: -0 is true, as CANN's
    CHECK_FALSE(static_cast<bool>(fp16_t(0.0f)));
}

TEST_CASE("fp16_t arithmetic rounds the exact result once, and compares as CANN's") {
    std::mt19937 random(7);
    std::uniform_int_distribution<uint32_t> any_bits(0, 0xFFFF);
    for (int i = 0; i < 200000; ++i) {
        const fp16_t a(static_cast<uint16_t>(any_bits(random)));
        const fp16_t b(static_cast<uint16_t>(any_bits(random)));
        if (FP16_IS_INVALID(a.val) || FP16_IS_INVALID(b.val)) continue;
        const double x = static_cast<double>(a);
        const double y = static_cast<double>(b);
#if defined(__FLT16_MAX__)
        // The compiler's own IEEE half is the reference where it has one.
        const auto reference = [](_Float16 value) {
            uint16_t bits;
            std::memcpy(&bits, &value, sizeof bits);
            return bits;
        };
        const _Float16 p = static_cast<_Float16>(x);
        const _Float16 q = static_cast<_Float16>(y);
        REQUIRE((a + b).val == reference(static_cast<_Float16>(p + q)));
        REQUIRE((a - b).val == reference(static_cast<_Float16>(p - q)));
        REQUIRE((a * b).val == reference(static_cast<_Float16>(p * q)));
        if (!FP16_IS_ZERO(a.val) && !FP16_IS_ZERO(b.val))
            REQUIRE((a / b).val == reference(static_cast<_Float16>(p / q)));
        const float wide = std::ldexp(static_cast<float>(any_bits(random)) + 0.37f, static_cast<int>(i % 48) - 34);
        REQUIRE(fp16_t(wide).val == reference(static_cast<_Float16>(wide)));
#else
        // The exact sum, difference and product of two halves fit a double: rounding them once is the
        // correctly rounded result.
        REQUIRE((a + b).val == fp16_t(x + y).val);
        REQUIRE((a - b).val == fp16_t(x - y).val);
        REQUIRE((a * b).val == fp16_t(x * y).val);
#endif
        REQUIRE((a > b) == (x > y));
        REQUIRE((a < b) == (x < y));
        REQUIRE((a == b) == (x == y));
    }
    CHECK(static_cast<float>(fp16_t(1.0f) / fp16_t(3.0f)) == static_cast<float>(fp16_t(1.0 / 3.0)));
    CHECK((fp16_t(-3.0f) / fp16_t(0.0f)).val == 0xFBFF);  // CANN's: the largest finite half, not infinity
    CHECK((fp16_t(0.0f) / fp16_t(-2.0f)).val == 0x0000);
    CHECK((fp16_t(0.0f) == fp16_t(-0.0f)));
    CHECK_FALSE((fp16_t(-0.0f) < fp16_t(0.0f)));
    fp16_t sum(1.0f);
    sum += fp16_t(2.0f);
    CHECK(static_cast<float>(sum) == 3.0f);
    CHECK((1.0f < fp16_t(2.0f)));
    CHECK(std::isnan(fp16_t(uint16_t{0x7E00})));
    CHECK(std::abs(fp16_t(-2.0f)) == 2.0f);
    CHECK(fp16_t(uint16_t{0xFC00}).IsInf() == -1);
}

TEST_CASE("bfloat16 rounds floats to nearest even and computes in float") {
    CHECK(bfloat16(1.0f).value == 0x3F80);
    CHECK(bfloat16(1.0f + std::ldexp(1.0f, -8)).value == 0x3F80);  // a tie goes to the even half
    CHECK(bfloat16(1.0f + 3 * std::ldexp(1.0f, -8)).value == 0x3F82);
    CHECK(bfloat16(std::numeric_limits<float>::quiet_NaN()).value == 0x7FC0);
    CHECK(static_cast<float>(bfloat16(3.0f) * bfloat16(0.5f)) == 1.5f);
    CHECK(static_cast<float>(-bfloat16(2.0f)) == -2.0f);
    CHECK(static_cast<int>(bfloat16(7.9f)) == 7);  // through float, truncating, as CANN's
    bfloat16 counter(1.0f);
    ++counter;
    CHECK(static_cast<float>(counter) == 2.0f);
    CHECK(std::isinf(std::numeric_limits<bfloat16>::infinity()));
    CHECK(std::isnan(std::numeric_limits<bfloat16>::signaling_NaN()));
    CHECK(static_cast<float>(bfloat16(fp16_t(1.5f))) == 1.5f);
}

TEST_CASE("catlass's golden data: random fill, scaling and comparison in fp16_t and bfloat16") {
    std::vector<fp16_t> data(64);
    for (auto& element : data)
        element = static_cast<fp16_t>(-5.0f + static_cast<float>(std::rand()) / RAND_MAX * 10.0f);
    const fp16_t alpha = static_cast<fp16_t>(1);
    const fp16_t two = static_cast<fp16_t>(2);
    for (auto& element : data) {
        const fp16_t scaled = static_cast<fp16_t>(element * alpha * two);
        REQUIRE(static_cast<float>(scaled) == 2.0f * static_cast<float>(element));
        REQUIRE(std::fabs(static_cast<float>(element)) <= 5.0f);
    }
    std::vector<bfloat16> scales(4, static_cast<bfloat16>(0.25f));
    CHECK(static_cast<float>(scales[0]) * 4.0f == 1.0f);
}

TEST_CASE("aclrtGetHardwareSyncAddr gives the device's own zeroed device memory") {
    Initialized init;
    void* addr = nullptr;
    CHECK_ACL_CODE(aclrtGetHardwareSyncAddr(&addr), ACL_ERROR_RT_CONTEXT_NULL);
    REQUIRE_ACL(aclrtSetDevice(0));
    CHECK_ACL_CODE(aclrtGetHardwareSyncAddr(nullptr), ACL_ERROR_RT_PARAM_INVALID);
    CHECK(std::string(aclGetRecentErrMsg()).find("addr is NULL") != std::string::npos);

    REQUIRE_ACL(aclrtGetHardwareSyncAddr(&addr));
    REQUIRE(addr != nullptr);
    void* again = nullptr;
    CHECK_ACL(aclrtGetHardwareSyncAddr(&again));
    CHECK(again == addr);

    // Device memory: copies and memsets take it as such, and it starts zeroed.
    std::vector<uint32_t> flags(64, 0xFFFFFFFFu);
    CHECK_ACL(aclrtMemcpy(flags.data(), 256, addr, 256, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(std::all_of(flags.begin(), flags.end(), [](uint32_t flag) { return flag == 0; }));
    CHECK_ACL(aclrtMemset(addr, 256, 0x5A, 256));
    CHECK_ACL(aclrtMemcpy(flags.data(), 256, addr, 256, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(flags[0] == 0x5A5A5A5Au);

    // The runtime owns it.
    CHECK_ACL_CODE(aclrtFree(addr), ACL_ERROR_RT_MEMORY_FREE);
    CHECK(std::string(aclGetRecentErrMsg()).find("aclrtGetHardwareSyncAddr") != std::string::npos);

    // A reset frees it; the device set again gets a fresh, zeroed area.
    REQUIRE_ACL(aclrtResetDevice(0));
    REQUIRE_ACL(aclrtSetDevice(0));
    void* fresh = nullptr;
    REQUIRE_ACL(aclrtGetHardwareSyncAddr(&fresh));
    CHECK_ACL(aclrtMemcpy(flags.data(), 256, fresh, 256, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(flags[0] == 0);
    CHECK_ACL(aclrtResetDevice(0));
}
