// Built-in tasks: aclrtReduceAsync (element-wise SUM / MAX / MIN into dst) and aclrtRandomNumAsync
// (uniform, normal, truncated normal, dropout bitmask; a counter-based generator).
#include <cmath>
#include <cstring>
#include <vector>

#include "support.h"

using namespace canopy_test;

namespace {
struct DeviceBuffer {
    explicit DeviceBuffer(size_t bytes) : size(bytes) { REQUIRE_ACL(aclrtMalloc(&pointer, bytes, ACL_MEM_MALLOC_HUGE_FIRST)); }
    ~DeviceBuffer() { aclrtFree(pointer); }
    template <class T>
    void put(const std::vector<T>& values) {
        REQUIRE_ACL(aclrtMemcpy(pointer, size, values.data(), values.size() * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE));
    }
    template <class T>
    std::vector<T> get(size_t count) {
        std::vector<T> values(count);
        CHECK_ACL(aclrtMemcpy(values.data(), count * sizeof(T), pointer, count * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST));
        return values;
    }
    size_t size;
    void* pointer = nullptr;
};

template <class T>
std::vector<T> reduce_on_device(aclrtReduceKind kind, aclDataType type, const std::vector<T>& dst, const std::vector<T>& src) {
    Stream stream;
    DeviceBuffer out(dst.size() * sizeof(T)), in(src.size() * sizeof(T));
    out.put(dst);
    in.put(src);
    CHECK_ACL(aclrtReduceAsync(out.pointer, in.pointer, dst.size() * sizeof(T), kind, type, stream, nullptr));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    return out.get<T>(dst.size());
}

void put_inline(aclrtRandomParaInfo& info, const void* value, uint8_t size) {
    std::memset(&info, 0, sizeof info);
    std::memcpy(info.valueOrAddr, value, size);
    info.size = size;
}

aclrtRandomNumTaskInfo task(aclDataType type, aclrtRandomNumFuncType function, uint64_t seed, uint64_t count,
                            void* counter, void* result) {
    aclrtRandomNumTaskInfo info;
    std::memset(&info, 0, sizeof info);
    info.dataType = type;
    info.randomNumFuncParaInfo.funcType = function;
    info.randomCounterAddr = counter;
    info.randomResultAddr = result;
    put_inline(info.randomSeed, &seed, 8);
    put_inline(info.randomNum, &count, 8);
    return info;
}
}  // namespace

TEST_CASE("aclrtReduceAsync combines src into dst element by element") {
    Runtime runtime;
    CHECK(reduce_on_device<float>(ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, {1, 2, 3, 4}, {1, 2, 3, 4}) ==
          std::vector<float>{2, 4, 6, 8});
    CHECK(reduce_on_device<float>(ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_FLOAT, {1, 5, -3}, {2, 4, -4}) ==
          std::vector<float>{2, 5, -3});
    CHECK(reduce_on_device<float>(ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_FLOAT, {1, 5, -3}, {2, 4, -4}) ==
          std::vector<float>{1, 4, -4});
    CHECK(reduce_on_device<int32_t>(ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, {INT32_MAX, -5}, {1, 7}) ==
          std::vector<int32_t>{INT32_MIN, 2});  // wraps
    CHECK(reduce_on_device<int16_t>(ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_INT16, {-1, 300}, {-2, 301}) ==
          std::vector<int16_t>{-1, 301});
    CHECK(reduce_on_device<int8_t>(ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_INT8, {-1, 100}, {-2, 101}) ==
          std::vector<int8_t>{-2, 100});
    const std::vector<uint16_t> halves = reduce_on_device<uint16_t>(
        ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT16, {aclFloatToFloat16(1.5f), aclFloatToFloat16(-2.0f)},
        {aclFloatToFloat16(0.25f), aclFloatToFloat16(0.5f)});
    CHECK(aclFloat16ToFloat(halves[0]) == 1.75f);
    CHECK(aclFloat16ToFloat(halves[1]) == -1.5f);
    const std::vector<uint16_t> bf16 =
        reduce_on_device<uint16_t>(ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_BF16, {0x3f80, 0x4000}, {0x3f80, 0x3f80});
    CHECK(bf16 == std::vector<uint16_t>{0x4000, 0x4040});  // 1+1 = 2, 2+1 = 3
}

TEST_CASE("aclrtReduceAsync runs in stream order") {
    Runtime runtime;
    Stream stream;
    DeviceBuffer out(16), in(16);
    out.put(std::vector<float>{0, 0, 0, 0});
    in.put(std::vector<float>{1, 1, 1, 1});
    for (int i = 0; i < 10; ++i) REQUIRE_ACL(aclrtReduceAsync(out.pointer, in.pointer, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, stream, nullptr));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(out.get<float>(4) == std::vector<float>{10, 10, 10, 10});
}

TEST_CASE("aclrtReduceAsync checks its arguments") {
    Runtime runtime;
    Stream stream;
    DeviceBuffer out(16), in(16);
    float host[4] = {};
    const auto sum = ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM;
    CHECK_ACL_CODE(aclrtReduceAsync(nullptr, in.pointer, 16, sum, ACL_FLOAT, stream, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtReduceAsync(out.pointer, nullptr, 16, sum, ACL_FLOAT, stream, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtReduceAsync(out.pointer, in.pointer, 16, sum, ACL_FLOAT, stream, host), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtReduceAsync(out.pointer, in.pointer, 16, sum, ACL_DOUBLE, stream, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtReduceAsync(out.pointer, in.pointer, 16, sum, ACL_UINT32, stream, nullptr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_ACL_CODE(aclrtReduceAsync(out.pointer, in.pointer, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_FLOAT, stream, nullptr),
                   ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    CHECK_ACL_CODE(aclrtReduceAsync(out.pointer, in.pointer, 16, static_cast<aclrtReduceKind>(3), ACL_FLOAT, stream, nullptr),
                   ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtReduceAsync(out.pointer, in.pointer, 6, sum, ACL_FLOAT, stream, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtReduceAsync(out.pointer, in.pointer, 32, sum, ACL_FLOAT, stream, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK(std::string(aclGetRecentErrMsg()).find("run past the end") != std::string::npos);
    CHECK_ACL_CODE(aclrtReduceAsync(host, in.pointer, 16, sum, ACL_FLOAT, stream, nullptr), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
}

TEST_CASE("aclrtRandomNumAsync: uniform floats and integers in range, reproducible from seed and counter") {
    Runtime runtime;
    Stream stream;
    constexpr uint64_t n = 4096;
    DeviceBuffer result(n * 8), counter(16);
    REQUIRE_ACL(aclrtMemset(counter.pointer, 16, 0, 16));

    aclrtRandomNumTaskInfo info = task(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 42, n, counter.pointer, result.pointer);
    const float low = -2.0f, high = 3.0f;
    put_inline(info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &low, 4);
    put_inline(info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &high, 4);
    REQUIRE_ACL(aclrtRandomNumAsync(&info, stream, nullptr));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    const std::vector<float> first = result.get<float>(n);
    double sum = 0;
    for (float value : first) {
        REQUIRE(value >= low);
        REQUIRE(value < high);
        sum += value;
    }
    CHECK(std::fabs(sum / n - 0.5) < 0.1);  // the mean of U(-2, 3); n = 4096 gives sigma 0.023
    // The counter moved on: the next task gives other numbers; a reset counter gives the same.
    const std::vector<uint64_t> moved = counter.get<uint64_t>(2);
    CHECK((moved[0] != 0 || moved[1] != 0));
    REQUIRE_ACL(aclrtRandomNumAsync(&info, stream, nullptr));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(result.get<float>(n) != first);
    REQUIRE_ACL(aclrtMemset(counter.pointer, 16, 0, 16));
    REQUIRE_ACL(aclrtRandomNumAsync(&info, stream, nullptr));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(result.get<float>(n) == first);

    info = task(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 7, n, counter.pointer, result.pointer);
    const int32_t imin = 1, imax = 100;
    put_inline(info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &imin, 4);
    put_inline(info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &imax, 4);
    REQUIRE_ACL(aclrtRandomNumAsync(&info, stream, nullptr));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    bool seen_low = false, seen_high = false;
    for (int32_t value : result.get<int32_t>(n)) {
        REQUIRE(value >= imin);
        REQUIRE(value < imax);
        seen_low = seen_low || value == imin;
        seen_high = seen_high || value == imax - 1;
    }
    CHECK(seen_low);
    CHECK(seen_high);

    info = task(ACL_FLOAT16, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 7, n, counter.pointer, result.pointer);
    const uint16_t hmin = 0x3c00, hmax = 0x4000;  // 1 and 2
    put_inline(info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &hmin, 2);
    put_inline(info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hmax, 2);
    REQUIRE_ACL(aclrtRandomNumAsync(&info, stream, nullptr));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    for (uint16_t value : result.get<uint16_t>(n)) {
        REQUIRE(aclFloat16ToFloat(value) >= 1.0f);
        REQUIRE(aclFloat16ToFloat(value) <= 2.0f);  // rounding may reach the upper bound
    }
}

TEST_CASE("aclrtRandomNumAsync: normal, truncated normal and dropout bitmask") {
    Runtime runtime;
    Stream stream;
    constexpr uint64_t n = 8192;
    DeviceBuffer result(n * 4), counter(16);
    REQUIRE_ACL(aclrtMemset(counter.pointer, 16, 0, 16));
    const float mean = 3.0f, stddev = 2.0f;
    for (auto function : {ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS}) {
        aclrtRandomNumTaskInfo info = task(ACL_FLOAT, function, 1, n, counter.pointer, result.pointer);
        put_inline(info.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &mean, 4);
        put_inline(info.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &stddev, 4);
        REQUIRE_ACL(aclrtRandomNumAsync(&info, stream, nullptr));
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
        double sum = 0, squares = 0;
        bool beyond_two_sigma = false;
        for (float value : result.get<float>(n)) {
            sum += value;
            squares += (value - mean) * (value - mean);
            beyond_two_sigma = beyond_two_sigma || std::fabs(value - mean) > 2 * stddev;
        }
        CHECK(std::fabs(sum / n - mean) < 0.15);
        if (function == ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS) {
            CHECK(std::fabs(std::sqrt(squares / n) - stddev) < 0.15);
            CHECK(beyond_two_sigma);  // about 4.6 % of normal samples
        } else {
            CHECK_FALSE(beyond_two_sigma);
        }
    }
    // Dropout: n bits, a bit set for each kept element, kept with probability 1 - ratio.
    aclrtRandomNumTaskInfo info = task(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, 1, n, counter.pointer, result.pointer);
    const float ratio = 0.25f;
    put_inline(info.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation, &ratio, 4);
    REQUIRE_ACL(aclrtRandomNumAsync(&info, stream, nullptr));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    int kept = 0;
    for (uint8_t byte : result.get<uint8_t>(n / 8)) kept += __builtin_popcount(byte);
    CHECK(std::fabs(kept / double(n) - 0.75) < 0.03);
}

TEST_CASE("aclrtRandomNumAsync reads parameters given by device address when the task runs") {
    Runtime runtime;
    Stream stream;
    DeviceBuffer result(64), counter(16), bounds(16);
    REQUIRE_ACL(aclrtMemset(counter.pointer, 16, 0, 16));
    bounds.put(std::vector<int32_t>{5, 6});  // min 5, max 6: every number is 5
    aclrtRandomNumTaskInfo info = task(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 3, 16, counter.pointer, result.pointer);
    void* min_address = bounds.pointer;
    void* max_address = static_cast<char*>(bounds.pointer) + 4;
    auto& uniform = info.randomNumFuncParaInfo.paramInfo.uniformDisInfo;
    put_inline(uniform.min, &min_address, 4);
    std::memcpy(uniform.min.valueOrAddr, &min_address, 8);
    uniform.min.isAddr = 1;
    put_inline(uniform.max, &max_address, 4);
    std::memcpy(uniform.max.valueOrAddr, &max_address, 8);
    uniform.max.isAddr = 1;
    REQUIRE_ACL(aclrtRandomNumAsync(&info, stream, nullptr));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(result.get<int32_t>(16) == std::vector<int32_t>(16, 5));
}

TEST_CASE("aclrtRandomNumAsync checks its task") {
    Runtime runtime;
    Stream stream;
    DeviceBuffer result(64), counter(16);
    const float one = 1.0f;
    aclrtRandomNumTaskInfo info = task(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, 1, 16, counter.pointer, result.pointer);
    put_inline(info.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &one, 4);
    put_inline(info.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &one, 4);
    CHECK_ACL_CODE(aclrtRandomNumAsync(nullptr, stream, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtRandomNumAsync(&info, stream, &info), ACL_ERROR_INVALID_PARAM);
    aclrtRandomNumTaskInfo bad = info;
    bad.dataType = ACL_INT8;
    CHECK_ACL_CODE(aclrtRandomNumAsync(&bad, stream, nullptr), ACL_ERROR_INVALID_PARAM);
    bad = info;
    bad.dataType = ACL_INT32;  // integers only for the uniform distribution
    CHECK_ACL_CODE(aclrtRandomNumAsync(&bad, stream, nullptr), ACL_ERROR_INVALID_PARAM);
    bad = info;
    bad.randomNumFuncParaInfo.funcType = static_cast<aclrtRandomNumFuncType>(9);
    CHECK_ACL_CODE(aclrtRandomNumAsync(&bad, stream, nullptr), ACL_ERROR_INVALID_PARAM);
    bad = info;
    bad.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean.size = 2;
    CHECK_ACL_CODE(aclrtRandomNumAsync(&bad, stream, nullptr), ACL_ERROR_INVALID_PARAM);
    bad = info;
    bad.randomResultAddr = nullptr;
    CHECK_ACL_CODE(aclrtRandomNumAsync(&bad, stream, nullptr), ACL_ERROR_INVALID_PARAM);
    bad = info;
    bad.randomCounterAddr = nullptr;
    CHECK_ACL_CODE(aclrtRandomNumAsync(&bad, stream, nullptr), ACL_ERROR_INVALID_PARAM);
    bad = info;
    const uint64_t too_many = 17;
    put_inline(bad.randomNum, &too_many, 8);
    CHECK_ACL_CODE(aclrtRandomNumAsync(&bad, stream, nullptr), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclrtRandomNumAsync(&info, stream, nullptr));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
}
