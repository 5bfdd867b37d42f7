// asm("trap") in a kernel: the source compiles, and the launch fails on its stream with
// ACL_ERROR_RT_AICORE_TRAP_EXCEPTION, as on the device.
#include <vector>

#include "support.h"

using namespace canopy_test;

void launch_trapping_kernel(uint32_t blocks, void* stream);
void launch_trapping_block(uint32_t blocks, void* stream, uint8_t* ran, uint32_t failing_block);
void launch_unknown_instruction(void* stream);

TEST_CASE("a trapping kernel fails its launch with ACL_ERROR_RT_AICORE_TRAP_EXCEPTION") {
    Runtime runtime;
    Stream stream;
    launch_trapping_kernel(8, stream);
    CHECK_ACL_CODE(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION);
    const std::string message = aclGetRecentErrMsg();
    CHECK(message.find("trapping_kernel") != std::string::npos);
    CHECK(message.find("asm: trap") != std::string::npos);
    // The failure is reported once; the stream works on.
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
}

TEST_CASE("with ACL_STOP_ON_FAILURE the work after a trap is skipped") {
    Runtime runtime;
    Stream stream;
    REQUIRE_ACL(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE));
    uint8_t* ran = nullptr;
    REQUIRE_ACL(aclrtMalloc(reinterpret_cast<void**>(&ran), 4 * sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMemset(ran, 16, 0, 16));
    launch_trapping_block(1, stream, ran, 0);
    std::atomic<int> after{0};
    REQUIRE_ACL(launch_increment(stream, after));
    CHECK_ACL_CODE(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION);
    CHECK(after.load() == 0);
    uint32_t seen[4] = {};
    REQUIRE_ACL(aclrtMemcpy(seen, sizeof seen, ran, sizeof seen, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(seen[0] == 1);  // the block ran up to its trap
    REQUIRE_ACL(aclrtFree(ran));
}

TEST_CASE("other AI Core instructions fail the launch naming the instruction") {
    Runtime runtime;
    Stream stream;
    launch_unknown_instruction(stream);
    CHECK_ACL_CODE(aclrtSynchronizeStream(stream), ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK(std::string(aclGetRecentErrMsg()).find("\"pipe_barrier PIPE_ALL\" is an AI Core instruction") != std::string::npos);
}
