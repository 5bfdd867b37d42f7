// Kernel-argument placeholders: aclrtKernelArgsAppendPlaceHolder reserves a pointer parameter,
// aclrtKernelArgsGetPlaceHolderBuffer hands out the host buffer its data is written to, and each
// launch passes a copy of that data taken at the launch.
#include <vector>

#include "support.h"

using namespace canopy_test;

extern "C" void fill_from_placeholders(uint8_t* out, int32_t* count, int32_t* value);

namespace {
struct Output {
    Output() { REQUIRE_ACL(aclrtMalloc(&pointer, 64 * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST)); }
    ~Output() { aclrtFree(pointer); }
    std::vector<int32_t> read() {
        std::vector<int32_t> values(64);
        CHECK_ACL(aclrtMemcpy(values.data(), 256, pointer, 256, ACL_MEMCPY_DEVICE_TO_HOST));
        return values;
    }
    void* pointer = nullptr;
};

struct PlaceholderArgs {
    explicit PlaceholderArgs(void* out) {
        REQUIRE_ACL(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&fill_from_placeholders), &function));
        REQUIRE_ACL(aclrtKernelArgsInit(function, &args));
        aclrtParamHandle param = nullptr;
        REQUIRE_ACL(aclrtKernelArgsAppend(args, &out, sizeof out, &param));
        REQUIRE_ACL(aclrtKernelArgsAppendPlaceHolder(args, &count_param));
        REQUIRE_ACL(aclrtKernelArgsAppendPlaceHolder(args, &value_param));
        REQUIRE_ACL(aclrtKernelArgsGetPlaceHolderBuffer(args, count_param, sizeof(int32_t), reinterpret_cast<void**>(&count)));
        REQUIRE_ACL(aclrtKernelArgsGetPlaceHolderBuffer(args, value_param, sizeof(int32_t), reinterpret_cast<void**>(&value)));
    }
    aclrtFuncHandle function = nullptr;
    aclrtArgsHandle args = nullptr;
    aclrtParamHandle count_param = nullptr, value_param = nullptr;
    int32_t* count = nullptr;
    int32_t* value = nullptr;
};
}  // namespace

TEST_CASE("placeholders pass the data of their buffers, copied at each launch") {
    Runtime runtime;
    Stream stream;
    Output out;
    REQUIRE_ACL(aclrtMemset(out.pointer, 256, 0, 256));
    PlaceholderArgs launch(out.pointer);
    *launch.count = 4;
    *launch.value = 100;
    REQUIRE_ACL(aclrtKernelArgsFinalize(launch.args));
    Gate gate;
    REQUIRE_ACL(gate.hold(stream));
    REQUIRE_ACL(aclrtLaunchKernelWithConfig(launch.function, 1, stream, nullptr, launch.args, nullptr));
    // Changed after the first launch, before it ran: the first launch keeps its copy.
    *launch.count = 2;
    *launch.value = 7;
    gate.open();
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    std::vector<int32_t> values = out.read();
    CHECK(std::vector<int32_t>(values.begin(), values.begin() + 5) == std::vector<int32_t>{100, 101, 102, 103, 0});
    REQUIRE_ACL(aclrtLaunchKernelWithConfig(launch.function, 1, stream, nullptr, launch.args, nullptr));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    values = out.read();
    CHECK(std::vector<int32_t>(values.begin(), values.begin() + 5) == std::vector<int32_t>{7, 8, 102, 103, 0});
}

TEST_CASE("placeholder calls check their arguments") {
    Runtime runtime;
    Output out;
    PlaceholderArgs launch(out.pointer);
    aclrtParamHandle param = nullptr;
    void* buffer = nullptr;
    CHECK_ACL_CODE(aclrtKernelArgsAppendPlaceHolder(nullptr, &param), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtKernelArgsAppendPlaceHolder(launch.args, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtKernelArgsGetPlaceHolderBuffer(launch.args, launch.count_param, 0, &buffer), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtKernelArgsGetPlaceHolderBuffer(launch.args, launch.count_param, 4, nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtKernelArgsGetPlaceHolderBuffer(launch.args, nullptr, 4, &buffer), ACL_ERROR_INVALID_PARAM);
    int foreign = 0;
    CHECK_ACL_CODE(aclrtKernelArgsGetPlaceHolderBuffer(launch.args, &foreign, 4, &buffer), ACL_ERROR_INVALID_PARAM);
    CHECK(std::string(aclGetRecentErrMsg()).find("is not a parameter of argsHandle") != std::string::npos);
    CHECK_ACL_CODE(aclrtKernelArgsGetPlaceHolderBuffer(reinterpret_cast<aclrtArgsHandle>(0x42), launch.count_param, 4, &buffer),
                   ACL_ERROR_RT_INVALID_HANDLE);
    REQUIRE_ACL(aclrtKernelArgsFinalize(launch.args));
    CHECK_ACL_CODE(aclrtKernelArgsAppendPlaceHolder(launch.args, &param), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}
