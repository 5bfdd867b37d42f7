// The Ascend 950's scalar atomics on GM (AtomicAdd / Max / Min / Cas / Exch), built for dav-3510:
// many blocks hitting one element at once give the indivisible result, each call returns the element
// as it was, and a misaligned or null address fails the launch naming the kernel and the API.
#include <cstdint>
#include <string>
#include <vector>

#include "canopy/kernel/launch.h"
#include "kernel_operator.h"
#include "support.h"

using namespace canopy_test;

namespace {

static_assert(__NPU_ARCH__ == 3510, "this test is built for the Ascend 950");

constexpr uint32_t kBlocks = 48;

// out[0]: a counter every block adds 1 to (1000 times); out[1]: the max of the blocks' indices;
// out[2]: the min; out[3]: a slot the first block to CAS it from 0 claims; out[4 + b]: what each
// block's Cas saw; olds[b]: the sum of what block b's adds returned (checks they were distinct).
__global__ __vector__ void atomics_kernel(GM_ADDR out, GM_ADDR olds) {
    __gm__ uint32_t* words = reinterpret_cast<__gm__ uint32_t*>(out);
    const uint32_t block = uint32_t(AscendC::GetBlockIdx());
    uint64_t seen = 0;
    for (int i = 0; i < 1000; ++i) seen += AscendC::AtomicAdd(words, uint32_t(1));
    reinterpret_cast<__gm__ uint64_t*>(olds)[block] = seen;
    AscendC::AtomicMax(reinterpret_cast<__gm__ int32_t*>(words + 1), int32_t(block));
    AscendC::AtomicMin(reinterpret_cast<__gm__ float*>(words + 2), float(block) + 0.5f);
    words[4 + block] = AscendC::AtomicCas(words + 3, uint32_t(0), block + 1);
}

TEST_CASE("950 scalar atomics: indivisible across blocks, each returning the element before") {
    Runtime rt;
    Stream stream;
    std::vector<uint32_t> init(4 + kBlocks, 0);
    const float big = 1e9f;
    std::memcpy(&init[2], &big, sizeof(float));
    void* out = nullptr;
    void* olds = nullptr;
    REQUIRE_ACL(aclrtMalloc(&out, init.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMalloc(&olds, kBlocks * 8, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMemcpy(out, init.size() * 4, init.data(), init.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    REQUIRE(ACLRT_LAUNCH_KERNEL(atomics_kernel)(kBlocks, stream, out, olds) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    std::vector<uint32_t> got(init.size());
    std::vector<uint64_t> seen(kBlocks);
    REQUIRE_ACL(aclrtMemcpy(got.data(), got.size() * 4, out, got.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    REQUIRE_ACL(aclrtMemcpy(seen.data(), kBlocks * 8, olds, kBlocks * 8, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(got[0] == kBlocks * 1000);
    // The adds returned 0 .. kBlocks * 1000 - 1, each once: their sum is fixed.
    uint64_t total = 0;
    for (uint64_t s : seen) total += s;
    CHECK(total == uint64_t(kBlocks) * 1000 * (kBlocks * 1000 - 1) / 2);
    CHECK(int32_t(got[1]) == int32_t(kBlocks - 1));
    float minimum;
    std::memcpy(&minimum, &got[2], sizeof(float));
    CHECK(minimum == 0.5f);
    // One block found 0 and claimed the slot; every other saw the winner's mark.
    const uint32_t winner = got[3];
    REQUIRE(winner >= 1);
    REQUIRE(winner <= kBlocks);
    for (uint32_t b = 0; b < kBlocks; ++b) CHECK(got[4 + b] == (b + 1 == winner ? 0u : winner));
    aclrtFree(out);
    aclrtFree(olds);
}

__global__ __vector__ void exch_kernel(GM_ADDR out) {
    __gm__ uint64_t* word = reinterpret_cast<__gm__ uint64_t*>(out);
    word[1] = AscendC::AtomicExch(word, uint64_t(7));
}

TEST_CASE("950 AtomicExch writes the value and returns the element before") {
    Runtime rt;
    Stream stream;
    std::vector<uint64_t> init = {5, 0};
    void* out = nullptr;
    REQUIRE_ACL(aclrtMalloc(&out, 16, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMemcpy(out, 16, init.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE));
    REQUIRE(ACLRT_LAUNCH_KERNEL(exch_kernel)(1, stream, out) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    REQUIRE_ACL(aclrtMemcpy(init.data(), 16, out, 16, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(init[0] == 7u);
    CHECK(init[1] == 5u);
    aclrtFree(out);
}

__global__ __vector__ void misaligned_atomic_kernel(GM_ADDR out) {
    AscendC::AtomicAdd(reinterpret_cast<__gm__ uint32_t*>(out + 2), uint32_t(1));
}

__global__ __vector__ void null_atomic_kernel() {
    AscendC::AtomicCas(static_cast<__gm__ uint64_t*>(nullptr), uint64_t(0), uint64_t(1));
}

TEST_CASE("950 scalar atomics on a misaligned or null address fail the launch naming kernel and API") {
    Runtime rt;
    Stream stream;
    void* out = nullptr;
    REQUIRE_ACL(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE(ACLRT_LAUNCH_KERNEL(misaligned_atomic_kernel)(1, stream, out) == 0u);
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    std::string message = recent_error();
    CHECK(message.find("misaligned_atomic_kernel") != std::string::npos);
    CHECK(message.find("AtomicAdd") != std::string::npos);
    CHECK(message.find("not aligned to its 4-byte element") != std::string::npos);
    REQUIRE(ACLRT_LAUNCH_KERNEL(null_atomic_kernel)(1, stream) == 0u);
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    message = recent_error();
    CHECK(message.find("null_atomic_kernel") != std::string::npos);
    CHECK(message.find("AtomicCas") != std::string::npos);
    CHECK(message.find("address is null") != std::string::npos);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    aclrtFree(out);
}

}  // namespace
