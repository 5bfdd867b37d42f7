// The kernel API's checks (kernel_operator.h). Every misuse CANN's CPU debug mode turns into an
// assertion abort is, in Canopy, a fault of the launch: the stream's next synchronize returns
// ACL_ERROR_RT_AICORE_EXCEPTION (507015), or the read / write overflow traps (507042 / 507043) for
// global memory; aclGetRecentErrMsg names the kernel, the block, the API and the sizes; the process
// goes on, the stream works again after that synchronize, and other streams are not affected.
// Then the semantics a golden test cannot pin down on its own: printf's line prefixes, SyncAll,
// Cast's rounding modes, DataCopyPad's padding, and the cube path's fractal layouts.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "canopy/kernel/launch.h"
#include "kernel_operator.h"
#include "support.h"

using namespace canopy_test;

// ---- A correct kernel, to show that streams keep working: y = 2 x, 64 floats per block.

constexpr uint32_t kScaleBlockLength = 64;

extern "C" __global__ __aicore__ void scale_kernel(GM_ADDR x, GM_ADDR y) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + kScaleBlockLength * AscendC::GetBlockIdx(), kScaleBlockLength);
    yGm.SetGlobalBuffer((__gm__ float*)y + kScaleBlockLength * AscendC::GetBlockIdx(), kScaleBlockLength);
    pipe.InitBuffer(inQueue, 1, kScaleBlockLength * sizeof(float));
    pipe.InitBuffer(outQueue, 1, kScaleBlockLength * sizeof(float));
    AscendC::LocalTensor<float> in = inQueue.AllocTensor<float>();
    AscendC::DataCopy(in, xGm, kScaleBlockLength);
    inQueue.EnQue(in);
    in = inQueue.DeQue<float>();
    AscendC::LocalTensor<float> out = outQueue.AllocTensor<float>();
    AscendC::Muls(out, in, 2.0f, kScaleBlockLength);
    outQueue.EnQue(out);
    inQueue.FreeTensor(in);
    out = outQueue.DeQue<float>();
    AscendC::DataCopy(yGm, out, kScaleBlockLength);
    outQueue.FreeTensor(out);
}

// ---- Kernels that misuse the API. `faulty_block` is the one block that does.

extern "C" __global__ __aicore__ void ub_overflow_kernel(int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> queue;
    pipe.InitBuffer(queue, 2, 100 * 1024);  // 200 KiB > the 192 KiB UB
}

extern "C" __global__ __aicore__ void too_many_buffers_kernel(int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffers[65];
    for (auto& buffer : buffers) pipe.InitBuffer(buffer, 32);
}

extern "C" __global__ __aicore__ void enque_beyond_depth_kernel(int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> queue;
    pipe.InitBuffer(queue, 2, 256);
    AscendC::LocalTensor<float> first = queue.AllocTensor<float>();
    AscendC::LocalTensor<float> second = queue.AllocTensor<float>();
    queue.EnQue(first);
    queue.EnQue(second);
}

extern "C" __global__ __aicore__ void enque_foreign_kernel(int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> owner;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> other;
    pipe.InitBuffer(owner, 1, 256);
    pipe.InitBuffer(other, 1, 256);
    AscendC::LocalTensor<float> tensor = owner.AllocTensor<float>();
    other.EnQue(tensor);
}

extern "C" __global__ __aicore__ void deque_empty_kernel(int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> queue;
    pipe.InitBuffer(queue, 2, 256);
    AscendC::LocalTensor<half> tensor = queue.DeQue<half>();
    static_cast<void>(tensor);
}

extern "C" __global__ __aicore__ void alloc_exhausted_kernel(int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> queue;
    pipe.InitBuffer(queue, 2, 512);
    AscendC::LocalTensor<float> first = queue.AllocTensor<float>();
    AscendC::LocalTensor<float> second = queue.AllocTensor<float>();
    AscendC::LocalTensor<float> third = queue.AllocTensor<float>();
    static_cast<void>(first), static_cast<void>(second), static_cast<void>(third);
}

extern "C" __global__ __aicore__ void double_free_kernel(int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> queue;
    pipe.InitBuffer(queue, 1, 1024);
    AscendC::LocalTensor<float> tensor = queue.AllocTensor<float>();
    queue.FreeTensor(tensor);
    queue.FreeTensor(tensor);
}

extern "C" __global__ __aicore__ void unaligned_copy_kernel(GM_ADDR x, int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> queue;
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    pipe.InitBuffer(queue, 1, 256);
    AscendC::LocalTensor<float> tensor = queue.AllocTensor<float>();
    AscendC::DataCopy(tensor, xGm, 7);  // 28 bytes
    queue.FreeTensor(tensor);
}

// Reads elements [32, 96) of a 64-element window.
extern "C" __global__ __aicore__ void gm_read_overflow_kernel(GM_ADDR x, int64_t faulty_block) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> queue;
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    pipe.InitBuffer(queue, 1, 64 * sizeof(float));
    AscendC::LocalTensor<float> tensor = queue.AllocTensor<float>();
    AscendC::DataCopy(tensor, xGm[AscendC::GetBlockIdx() == faulty_block ? 32 : 0], 64);
    queue.FreeTensor(tensor);
}

// Writes elements [32, 96) of a 64-element window.
extern "C" __global__ __aicore__ void gm_write_overflow_kernel(GM_ADDR y, int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECOUT> buffer;
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 64);
    pipe.InitBuffer(buffer, 64 * sizeof(float));
    AscendC::LocalTensor<float> tensor = buffer.Get<float>();
    AscendC::Duplicate(tensor, 1.0f, 64);
    AscendC::DataCopy(yGm[32], tensor, 64);
}

extern "C" __global__ __aicore__ void gm_get_value_overflow_kernel(GM_ADDR x, int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    static_cast<void>(xGm.GetValue(64));
}

extern "C" __global__ __aicore__ void gm_set_value_overflow_kernel(GM_ADDR y, int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 64);
    yGm[60].SetValue(4, 1.0f);  // element 64
}

extern "C" __global__ __aicore__ void local_index_overflow_kernel(int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 64 * sizeof(float));
    AscendC::LocalTensor<float> tensor = buffer.Get<float>();
    tensor.SetValue(64, 1.0f);
}

extern "C" __global__ __aicore__ void local_count_overflow_kernel(int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> small;
    AscendC::TBuf<AscendC::TPosition::VECCALC> large;
    pipe.InitBuffer(small, 64 * sizeof(float));
    pipe.InitBuffer(large, 128 * sizeof(float));
    AscendC::Add(large.Get<float>(), large.Get<float>(), small.Get<float>(), 128);
}

extern "C" __global__ __aicore__ void held_at_end_kernel(int64_t faulty_block) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> queue;
    pipe.InitBuffer(queue, 2, 1024);
    AscendC::LocalTensor<float> tensor = queue.AllocTensor<float>();
    if (AscendC::GetBlockIdx() != faulty_block) queue.FreeTensor(tensor);
}

namespace {

constexpr uint32_t kBlocks = 4;
constexpr int64_t kFaultyBlock = 3;

// Device memory of `count` floats filled with `value`.
class DeviceFloats {
public:
    DeviceFloats(std::size_t count, float value) : host_(count, value) {
        REQUIRE_ACL(aclrtMalloc(&device_, bytes(), ACL_MEM_MALLOC_HUGE_FIRST));
        REQUIRE_ACL(aclrtMemcpy(device_, bytes(), host_.data(), bytes(), ACL_MEMCPY_HOST_TO_DEVICE));
    }
    ~DeviceFloats() { aclrtFree(device_); }
    DeviceFloats(const DeviceFloats&) = delete;
    DeviceFloats& operator=(const DeviceFloats&) = delete;

    void* get() const { return device_; }
    std::size_t bytes() const { return host_.size() * sizeof(float); }
    std::vector<float> read() {
        REQUIRE_ACL(aclrtMemcpy(host_.data(), bytes(), device_, bytes(), ACL_MEMCPY_DEVICE_TO_HOST));
        return host_;
    }

private:
    std::vector<float> host_;
    void* device_ = nullptr;
};

// Runs scale_kernel on `stream` and checks its result: the stream is healthy.
void check_stream_works(aclrtStream stream) {
    DeviceFloats x(kBlocks * kScaleBlockLength, 1.5f), y(kBlocks * kScaleBlockLength, 0.0f);
    REQUIRE(ACLRT_LAUNCH_KERNEL(scale_kernel)(kBlocks, stream, x.get(), y.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    for (float value : y.read()) REQUIRE(value == 3.0f);
}

// The launch was accepted; the stream's next synchronize returns `code` and the recent error message
// contains every fragment. Meanwhile a correct kernel on `other` runs to completion, and afterwards
// the failed stream works again.
void expect_fault(aclrtStream stream, aclrtStream other, uint32_t launch_rc, int code,
                  std::initializer_list<const char*> fragments) {
    REQUIRE(launch_rc == 0u);
    check_stream_works(other);
    CHECK(aclrtSynchronizeStream(stream) == code);
    const std::string message = recent_error();
    MESSAGE(message);
    for (const char* fragment : fragments) {
        CAPTURE(fragment);
        CHECK(message.find(fragment) != std::string::npos);
    }
    CHECK_ACL(aclrtSynchronizeStream(stream));  // the failure was reported once
    check_stream_works(stream);
}

}  // namespace

TEST_CASE("InitBuffer beyond the UB capacity fails the launch with 507015") {
    Runtime rt;
    Stream stream, other;
    expect_fault(stream, other, ACLRT_LAUNCH_KERNEL(ub_overflow_kernel)(kBlocks, stream, kFaultyBlock),
                 ACL_ERROR_RT_AICORE_EXCEPTION,
                 {"ub_overflow_kernel", "block 3/4", "InitBuffer", "UB capacity exceeded", "2 x 102400 bytes",
                  "204800 bytes requested", "196608 bytes"});
}

TEST_CASE("more than 64 buffers in a TPipe fail the launch with 507015") {
    Runtime rt;
    Stream stream, other;
    expect_fault(stream, other, ACLRT_LAUNCH_KERNEL(too_many_buffers_kernel)(kBlocks, stream, kFaultyBlock),
                 ACL_ERROR_RT_AICORE_EXCEPTION,
                 {"too_many_buffers_kernel", "block 3/4", "InitBuffer", "64 already carved", "at most 64 buffers"});
}

TEST_CASE("EnQue beyond the queue's depth fails the launch with 507015") {
    Runtime rt;
    Stream stream, other;
    expect_fault(stream, other, ACLRT_LAUNCH_KERNEL(enque_beyond_depth_kernel)(kBlocks, stream, kFaultyBlock),
                 ACL_ERROR_RT_AICORE_EXCEPTION,
                 {"enque_beyond_depth_kernel", "block 3/4", "EnQue", "TQue<VECIN, depth 1> already holds 1",
                  "depth is 1"});
}

TEST_CASE("EnQue of a tensor another queue allocated fails the launch with 507015") {
    Runtime rt;
    Stream stream, other;
    expect_fault(stream, other, ACLRT_LAUNCH_KERNEL(enque_foreign_kernel)(kBlocks, stream, kFaultyBlock),
                 ACL_ERROR_RT_AICORE_EXCEPTION,
                 {"enque_foreign_kernel", "block 3/4", "EnQue", "VECIN tensor of 64 elements",
                  "not allocated by TQue<VECOUT, depth 1>"});
}

TEST_CASE("DeQue of an empty queue fails the launch with 507015") {
    Runtime rt;
    Stream stream, other;
    expect_fault(stream, other, ACLRT_LAUNCH_KERNEL(deque_empty_kernel)(kBlocks, stream, kFaultyBlock),
                 ACL_ERROR_RT_AICORE_EXCEPTION,
                 {"deque_empty_kernel", "block 3/4", "DeQue", "TQue<VECOUT, depth 2> is empty", "0 of depth 2"});
}

TEST_CASE("AllocTensor with every buffer held fails the launch with 507015") {
    Runtime rt;
    Stream stream, other;
    expect_fault(stream, other, ACLRT_LAUNCH_KERNEL(alloc_exhausted_kernel)(kBlocks, stream, kFaultyBlock),
                 ACL_ERROR_RT_AICORE_EXCEPTION,
                 {"alloc_exhausted_kernel", "block 3/4", "AllocTensor", "no free buffer",
                  "all 2 of its 512-byte buffers", "2 allocated"});
}

TEST_CASE("FreeTensor of a free buffer fails the launch with 507015") {
    Runtime rt;
    Stream stream, other;
    expect_fault(stream, other, ACLRT_LAUNCH_KERNEL(double_free_kernel)(kBlocks, stream, kFaultyBlock),
                 ACL_ERROR_RT_AICORE_EXCEPTION,
                 {"double_free_kernel", "block 3/4", "FreeTensor", "1024-byte buffer", "already free"});
}

TEST_CASE("DataCopy of a byte count that is not a multiple of 32 fails the launch with 507015") {
    Runtime rt;
    Stream stream, other;
    DeviceFloats x(64, 1.0f);
    expect_fault(stream, other, ACLRT_LAUNCH_KERNEL(unaligned_copy_kernel)(kBlocks, stream, x.get(), kFaultyBlock),
                 ACL_ERROR_RT_AICORE_EXCEPTION,
                 {"unaligned_copy_kernel", "block 3/4", "DataCopy", "7 elements x 4 bytes = 28 bytes",
                  "not a multiple of 32"});
}

TEST_CASE("a DataCopy reading past the GlobalTensor's size fails the launch with 507042") {
    Runtime rt;
    Stream stream, other;
    DeviceFloats x(1024, 1.0f);
    expect_fault(stream, other, ACLRT_LAUNCH_KERNEL(gm_read_overflow_kernel)(kBlocks, stream, x.get(), kFaultyBlock),
                 ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW,
                 {"gm_read_overflow_kernel", "block 3/4", "DataCopy", "reads elements [32, 96)",
                  "SetGlobalBuffer size is 64 elements (256 bytes)"});
}

TEST_CASE("a DataCopy writing past the GlobalTensor's size fails the launch with 507043") {
    Runtime rt;
    Stream stream, other;
    DeviceFloats y(1024, 0.0f);
    expect_fault(stream, other,
                 ACLRT_LAUNCH_KERNEL(gm_write_overflow_kernel)(kBlocks, stream, y.get(), kFaultyBlock),
                 ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW,
                 {"gm_write_overflow_kernel", "block 3/4", "DataCopy", "writes elements [32, 96)",
                  "SetGlobalBuffer size is 64 elements"});
    // Nothing was written: the check comes before the move.
    for (float value : y.read()) CHECK(value == 0.0f);
}

TEST_CASE("GetValue / SetValue past the GlobalTensor's size fail with 507042 / 507043") {
    Runtime rt;
    Stream stream, other;
    DeviceFloats buffer(1024, 0.0f);
    expect_fault(stream, other,
                 ACLRT_LAUNCH_KERNEL(gm_get_value_overflow_kernel)(kBlocks, stream, buffer.get(), kFaultyBlock),
                 ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW,
                 {"gm_get_value_overflow_kernel", "block 3/4", "GlobalTensor::GetValue", "reads elements [64, 65)"});
    expect_fault(stream, other,
                 ACLRT_LAUNCH_KERNEL(gm_set_value_overflow_kernel)(kBlocks, stream, buffer.get(), kFaultyBlock),
                 ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW,
                 {"gm_set_value_overflow_kernel", "block 3/4", "GlobalTensor::SetValue", "writes elements [64, 65)"});
}

TEST_CASE("access past a LocalTensor's end fails the launch with 507015") {
    Runtime rt;
    Stream stream, other;
    expect_fault(stream, other, ACLRT_LAUNCH_KERNEL(local_index_overflow_kernel)(kBlocks, stream, kFaultyBlock),
                 ACL_ERROR_RT_AICORE_EXCEPTION,
                 {"local_index_overflow_kernel", "block 3/4", "LocalTensor::SetValue",
                  "index 64 is past the end of a VECCALC LocalTensor of 64 elements"});
    expect_fault(stream, other, ACLRT_LAUNCH_KERNEL(local_count_overflow_kernel)(kBlocks, stream, kFaultyBlock),
                 ACL_ERROR_RT_AICORE_EXCEPTION,
                 {"local_count_overflow_kernel", "block 3/4", "Add: src1 reaches 512 bytes",
                  "its VECCALC LocalTensor holds 256 bytes"});
}

TEST_CASE("buffers still held when the kernel returns fail the launch with 507015") {
    Runtime rt;
    Stream stream, other;
    expect_fault(stream, other, ACLRT_LAUNCH_KERNEL(held_at_end_kernel)(kBlocks, stream, kFaultyBlock),
                 ACL_ERROR_RT_AICORE_EXCEPTION,
                 {"held_at_end_kernel", "block 3/4", "TPipe", "1 of 2 buffers still held when the kernel returned",
                  "VECIN, 1024 bytes) is allocated"});
}

// ---- printf: lines of concurrently running blocks never interleave.

extern "C" __global__ __aicore__ void printf_kernel(uint32_t lines) {
    for (uint32_t line = 0; line < lines; ++line) {
        AscendC::printf("block %d line %u of %u: %s %f\n", AscendC::GetBlockIdx(), line, lines,
                        "abcdefghijklmnopqrstuvwxyz0123456789", half(0.5f));
    }
}

TEST_CASE("AscendC::printf prefixes each line with its block and never interleaves lines") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t blocks = 8, lines = 50;
    // Route stdout to a file for the launch.
    char path[] = "/tmp/canopy-printf-XXXXXX";
    const int file = ::mkstemp(path);
    REQUIRE(file >= 0);
    std::fflush(stdout);
    const int saved_stdout = ::dup(STDOUT_FILENO);
    ::dup2(file, STDOUT_FILENO);
    const uint32_t rc = ACLRT_LAUNCH_KERNEL(printf_kernel)(blocks, stream, lines);
    const aclError sync = aclrtSynchronizeStream(stream);
    std::fflush(stdout);
    ::dup2(saved_stdout, STDOUT_FILENO);
    ::close(saved_stdout);
    ::close(file);
    REQUIRE(rc == 0u);
    REQUIRE(sync == ACL_SUCCESS);

    std::ifstream in(path);
    std::string text;
    std::vector<uint32_t> seen(blocks, 0);
    uint32_t total = 0;
    while (std::getline(in, text)) {
        ++total;
        uint32_t block = 0, count = 0, block_again = 0, line = 0, of = 0;
        char letters[64] = {};
        float value = 0;
        const int fields = std::sscanf(text.c_str(), "[block %u/%u] block %u line %u of %u: %63s %f", &block, &count,
                                       &block_again, &line, &of, letters, &value);
        CAPTURE(text);
        REQUIRE(fields == 7);
        CHECK(count == blocks);
        CHECK(block == block_again);
        CHECK(of == lines);
        CHECK(std::string(letters) == "abcdefghijklmnopqrstuvwxyz0123456789");
        CHECK(value == 0.5f);
        REQUIRE(block < blocks);
        CHECK(line == seen[block]++);  // each block's lines in order
    }
    std::remove(path);
    CHECK(total == blocks * lines);
}

// ---- SyncAll: a barrier across the blocks of a cooperative launch.

// Every block writes its index, waits for all, then reads its right neighbour's.
extern "C" __global__ __aicore__ void sync_all_kernel(GM_ADDR slots, GM_ADDR neighbours) {
    AscendC::GlobalTensor<int32_t> slotGm, neighbourGm;
    slotGm.SetGlobalBuffer((__gm__ int32_t*)slots, AscendC::GetBlockNum());
    neighbourGm.SetGlobalBuffer((__gm__ int32_t*)neighbours, AscendC::GetBlockNum());
    slotGm.SetValue(AscendC::GetBlockIdx(), int32_t(AscendC::GetBlockIdx() + 100));
    AscendC::SyncAll();
    const int64_t right = (AscendC::GetBlockIdx() + 1) % AscendC::GetBlockNum();
    neighbourGm.SetValue(AscendC::GetBlockIdx(), slotGm.GetValue(right));
}
CANOPY_REGISTER_COOPERATIVE_KERNEL(sync_all_kernel);

TEST_CASE("SyncAll makes every block's writes before it visible to every block after it") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t blocks = 6;
    void* slots = nullptr;
    void* neighbours = nullptr;
    REQUIRE_ACL(aclrtMalloc(&slots, blocks * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMalloc(&neighbours, blocks * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE(ACLRT_LAUNCH_KERNEL(sync_all_kernel)(blocks, stream, slots, neighbours) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    std::vector<int32_t> result(blocks);
    CHECK_ACL(aclrtMemcpy(result.data(), blocks * sizeof(int32_t), neighbours, blocks * sizeof(int32_t),
                          ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t block = 0; block < blocks; ++block) CHECK(result[block] == int32_t((block + 1) % blocks + 100));
    aclrtFree(slots);
    aclrtFree(neighbours);
}

// ---- Vector operands must start on a 32-byte boundary.

extern "C" __global__ __aicore__ void misaligned_operand_kernel(int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buffer;
    pipe.InitBuffer(buffer, 256 * sizeof(float));
    AscendC::LocalTensor<float> tensor = buffer.Get<float>();
    AscendC::Exp(tensor[3], tensor[64], 32);  // 12 bytes past a boundary
}

TEST_CASE("a vector operand off a 32-byte boundary fails the launch with 507015") {
    Runtime rt;
    Stream stream, other;
    expect_fault(stream, other, ACLRT_LAUNCH_KERNEL(misaligned_operand_kernel)(kBlocks, stream, kFaultyBlock),
                 ACL_ERROR_RT_AICORE_EXCEPTION,
                 {"misaligned_operand_kernel", "block 3/4", "Exp", "dst starts 12 bytes past a 32-byte boundary"});
}

// ---- Semantics: Cast's rounding modes.

// Casts the 8 floats of `input` to half and to int32 with each of the six modes; writes the halves
// then the integers, mode after mode.
extern "C" __global__ __aicore__ void cast_modes_kernel(GM_ADDR input, GM_ADDR halves, GM_ADDR integers) {
    constexpr int32_t count = 8;
    constexpr AscendC::RoundMode modes[] = {AscendC::RoundMode::CAST_RINT, AscendC::RoundMode::CAST_FLOOR,
                                            AscendC::RoundMode::CAST_CEIL, AscendC::RoundMode::CAST_ROUND,
                                            AscendC::RoundMode::CAST_TRUNC, AscendC::RoundMode::CAST_ODD};
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> floatBuf, halfBuf, intBuf;
    pipe.InitBuffer(floatBuf, count * sizeof(float));
    pipe.InitBuffer(halfBuf, 16 * sizeof(half));
    pipe.InitBuffer(intBuf, count * sizeof(int32_t));
    AscendC::GlobalTensor<float> inputGm;
    AscendC::GlobalTensor<half> halfGm;
    AscendC::GlobalTensor<int32_t> intGm;
    inputGm.SetGlobalBuffer((__gm__ float*)input, count);
    halfGm.SetGlobalBuffer((__gm__ half*)halves, 6 * 16);
    intGm.SetGlobalBuffer((__gm__ int32_t*)integers, 5 * count);
    AscendC::LocalTensor<float> values = floatBuf.Get<float>();
    // Each step waits for the one before it (PipeBarrier<PIPE_ALL>): the copies and the casts
    // run on different pipes and share the buffers.
    AscendC::DataCopy(values, inputGm, count);
    AscendC::PipeBarrier<PIPE_ALL>();
    for (int32_t m = 0; m < 6; ++m) {
        AscendC::Cast(halfBuf.Get<half>(), values, modes[m], count);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(halfGm[m * 16], halfBuf.Get<half>(), 16);
        AscendC::PipeBarrier<PIPE_ALL>();
        if (modes[m] == AscendC::RoundMode::CAST_ODD) continue;  // not a mode for integers
        AscendC::Cast(intBuf.Get<int32_t>(), values, modes[m], count);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(intGm[m * count], intBuf.Get<int32_t>(), count);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
}

TEST_CASE("Cast rounds to half and to int32 with every RoundMode, and saturates integers") {
    Runtime rt;
    Stream stream;
    const float between = 1.0f + 0x1p-11f;  // halfway between the halves 1 and 1 + 2^-10
    const float above = 1.0f + 0x1p-12f;    // a quarter of the way up
    const std::vector<float> input = {between, -between, above, 2.5f, -2.5f, 3e9f, -3e9f, NAN};
    void* input_device = nullptr;
    void* halves_device = nullptr;
    void* integers_device = nullptr;
    REQUIRE_ACL(aclrtMalloc(&input_device, 8 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMalloc(&halves_device, 6 * 16 * sizeof(half), ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMalloc(&integers_device, 5 * 8 * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMemcpy(input_device, 8 * sizeof(float), input.data(), 8 * sizeof(float),
                            ACL_MEMCPY_HOST_TO_DEVICE));
    REQUIRE(ACLRT_LAUNCH_KERNEL(cast_modes_kernel)(1, stream, input_device, halves_device, integers_device) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    std::vector<half> halves(6 * 16);
    std::vector<int32_t> integers(5 * 8);
    REQUIRE_ACL(aclrtMemcpy(halves.data(), halves.size() * sizeof(half), halves_device, halves.size() * sizeof(half),
                            ACL_MEMCPY_DEVICE_TO_HOST));
    REQUIRE_ACL(aclrtMemcpy(integers.data(), integers.size() * sizeof(int32_t), integers_device,
                            integers.size() * sizeof(int32_t), ACL_MEMCPY_DEVICE_TO_HOST));
    const float up = 1.0f + 0x1p-10f;  // the half above 1
    // Per mode (RINT, FLOOR, CEIL, ROUND, TRUNC, ODD): the halves of between, -between and above.
    const float expected_halves[6][3] = {{1.0f, -1.0f, 1.0f}, {1.0f, -up, 1.0f}, {up, -1.0f, up},
                                         {up, -up, 1.0f},     {1.0f, -1.0f, 1.0f}, {up, -up, up}};
    for (int m = 0; m < 6; ++m) {
        CAPTURE(m);
        for (int i = 0; i < 3; ++i) CHECK(float(halves[m * 16 + i]) == expected_halves[m][i]);
    }
    // Per integer mode: 2.5, -2.5, then 3e9 and -3e9 saturate and NaN becomes 0.
    const int32_t expected_integers[5][2] = {{2, -2}, {2, -3}, {3, -2}, {3, -3}, {2, -2}};
    for (int m = 0; m < 5; ++m) {
        CAPTURE(m);
        CHECK(integers[m * 8 + 3] == expected_integers[m][0]);
        CHECK(integers[m * 8 + 4] == expected_integers[m][1]);
        CHECK(integers[m * 8 + 5] == INT32_MAX);
        CHECK(integers[m * 8 + 6] == INT32_MIN);
        CHECK(integers[m * 8 + 7] == 0);
    }
    aclrtFree(input_device);
    aclrtFree(halves_device);
    aclrtFree(integers_device);
}

// ---- Semantics: DataCopyPad's padding and unaligned bursts.

// Moves `rows` bursts of 5 halves (10 bytes, GM rows 7 halves apart) into the UB, padded with one
// element of 9 on the left and two of 7 on the right (32-byte UB rows), then moves each padded row
// (3 + 5 + ... elements) back out as 8 halves per GM row.
extern "C" __global__ __aicore__ void data_copy_pad_kernel(GM_ADDR input, GM_ADDR output, uint32_t rows) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> queue;
    pipe.InitBuffer(queue, 1, rows * AscendC::ONE_BLK_SIZE);
    AscendC::GlobalTensor<half> inputGm, outputGm;
    inputGm.SetGlobalBuffer((__gm__ half*)input, rows * 7);
    outputGm.SetGlobalBuffer((__gm__ half*)output, rows * 8);
    AscendC::LocalTensor<half> tensor = queue.AllocTensor<half>();
    AscendC::Duplicate(tensor, half(-1.0f), rows * 16);
    AscendC::PipeBarrier<PIPE_ALL>();  // the copy's padding overwrites what Duplicate wrote
    AscendC::DataCopyPad(tensor, inputGm, AscendC::DataCopyExtParams(rows, 5 * sizeof(half), 2 * sizeof(half), 0, 0),
                         AscendC::DataCopyPadExtParams<half>{true, 1, 2, 7});  // an int pad value, as samples write
    queue.EnQue(tensor);
    tensor = queue.DeQue<half>();
    AscendC::DataCopyPad(outputGm, tensor, AscendC::DataCopyExtParams(rows, 8 * sizeof(half), 0, 0, 0));
    queue.FreeTensor(tensor);
}

TEST_CASE("DataCopyPad pads bursts in the UB and moves unaligned bursts with GM strides") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t rows = 3;
    std::vector<half> input(rows * 7);
    for (uint32_t i = 0; i < input.size(); ++i) input[i] = half(float(i));
    void* input_device = nullptr;
    void* output_device = nullptr;
    REQUIRE_ACL(aclrtMalloc(&input_device, input.size() * sizeof(half), ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMalloc(&output_device, rows * 8 * sizeof(half), ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMemcpy(input_device, input.size() * sizeof(half), input.data(), input.size() * sizeof(half),
                            ACL_MEMCPY_HOST_TO_DEVICE));
    REQUIRE(ACLRT_LAUNCH_KERNEL(data_copy_pad_kernel)(1, stream, input_device, output_device, rows) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    std::vector<half> output(rows * 8);
    REQUIRE_ACL(aclrtMemcpy(output.data(), output.size() * sizeof(half), output_device, output.size() * sizeof(half),
                            ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t r = 0; r < rows; ++r) {
        CAPTURE(r);
        // [pad 7] [5 values of the row] [pad 7, pad 7]: the burst's padding, in its 32-byte UB row.
        const float expected[8] = {7.0f, float(r * 7), float(r * 7 + 1), float(r * 7 + 2), float(r * 7 + 3),
                                   float(r * 7 + 4), 7.0f, 7.0f};
        for (int i = 0; i < 8; ++i) CHECK(float(output[r * 8 + i]) == expected[i]);
    }
    aclrtFree(input_device);
    aclrtFree(output_device);
}

// ---- Semantics: the cube path with static tensors, in the shape of the matmul_basic_api sample.

// One block: C (float, M x N) = A (half, M x K) x B (half, K x N) through LocalMemAllocator pieces of
// L1 / L0A / L0B / L0C, Nd2Nz, LoadData (B transposed), Mmad and Fixpipe without conversion.
template <uint32_t M, uint32_t K, uint32_t N>
__global__ __cube__ void static_mmad_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half*)a, M * K);
    bGm.SetGlobalBuffer((__gm__ half*)b, K * N);
    cGm.SetGlobalBuffer((__gm__ float*)c, M * N);
    AscendC::LocalMemAllocator<AscendC::Hardware::L1> l1;
    AscendC::LocalMemAllocator<AscendC::Hardware::L0A> l0a;
    AscendC::LocalMemAllocator<AscendC::Hardware::L0B> l0b;
    AscendC::LocalMemAllocator<AscendC::Hardware::L0C> l0c;
    AscendC::LocalTensor<half> a1 = l1.Alloc<AscendC::TPosition::A1, half>(M * K);
    AscendC::LocalTensor<half> b1 = l1.Alloc<AscendC::TPosition::B1, half>(K * N);
    AscendC::LocalTensor<half> a2 = l0a.Alloc<AscendC::TPosition::A2, half>(M * K);
    AscendC::LocalTensor<half> b2 = l0b.Alloc<AscendC::TPosition::B2, half>(K * N);
    AscendC::LocalTensor<float> c1 = l0c.Alloc<AscendC::TPosition::CO1, float>(M * N);
    AscendC::DataCopy(a1, aGm, AscendC::Nd2NzParams{1, M, K, 0, K, M, 1, 0});
    AscendC::DataCopy(b1, bGm, AscendC::Nd2NzParams{1, K, N, 0, N, K, 1, 0});
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
    for (uint32_t band = 0; band < M / 16; ++band) {
        AscendC::LoadData(a2[band * K * 16], a1[band * 256],
                          AscendC::LoadData2DParams{0, K / 16, M / 16, 0, 0, false, 0});
    }
    for (uint32_t band = 0; band < K / 16; ++band) {
        AscendC::LoadData(b2[band * N * 16], b1[band * 256],
                          AscendC::LoadData2DParams{0, N / 16, K / 16, 0, 0, true, 0});
    }
    AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
    AscendC::Mmad(c1, a2, b2, AscendC::MmadParams{M, N, K, 0, false, true});
    AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
    AscendC::Fixpipe(cGm, c1, AscendC::FixpipeParamsV220{N, M, M, N, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0});
    AscendC::PipeBarrier<PIPE_ALL>();
}

TEST_CASE("the cube path (Nd2Nz, LoadData, Mmad, Fixpipe) multiplies matrices in the hardware's layouts") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t M = 48, K = 32, N = 64;
    std::vector<half> a(M * K), b(K * N);
    for (uint32_t i = 0; i < a.size(); ++i) a[i] = half(float(int(i * 7 % 17) - 8) / 4.0f);
    for (uint32_t i = 0; i < b.size(); ++i) b[i] = half(float(int(i * 5 % 13) - 6) / 4.0f);
    void* a_device = nullptr;
    void* b_device = nullptr;
    void* c_device = nullptr;
    REQUIRE_ACL(aclrtMalloc(&a_device, a.size() * sizeof(half), ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMalloc(&b_device, b.size() * sizeof(half), ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMalloc(&c_device, M * N * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMemcpy(a_device, a.size() * sizeof(half), a.data(), a.size() * sizeof(half),
                            ACL_MEMCPY_HOST_TO_DEVICE));
    REQUIRE_ACL(aclrtMemcpy(b_device, b.size() * sizeof(half), b.data(), b.size() * sizeof(half),
                            ACL_MEMCPY_HOST_TO_DEVICE));
    REQUIRE(ACLRT_LAUNCH_KERNEL((static_mmad_kernel<M, K, N>))(1, stream, a_device, b_device, c_device) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    std::vector<float> c(M * N);
    REQUIRE_ACL(aclrtMemcpy(c.data(), c.size() * sizeof(float), c_device, c.size() * sizeof(float),
                            ACL_MEMCPY_DEVICE_TO_HOST));
    // Quarter-integer inputs: every product and partial sum is exact in float.
    for (uint32_t m = 0; m < M; ++m) {
        for (uint32_t n = 0; n < N; ++n) {
            float expected = 0;
            for (uint32_t k = 0; k < K; ++k) expected += float(a[m * K + k]) * float(b[k * N + n]);
            REQUIRE(c[m * N + n] == expected);
        }
    }
    aclrtFree(a_device);
    aclrtFree(b_device);
    aclrtFree(c_device);
}

// ---- Semantics: Cast between half and int4b_t.

// Casts 256 halves to int4 (CAST_CEIL) with the count form, then with the high-dimensional form
// on the first 64 slots of each repeat only; then the packed int4 back to half.
extern "C" __global__ __aicore__ void cast_int4_kernel(GM_ADDR input, GM_ADDR packed, GM_ADDR masked, GM_ADDR back) {
    constexpr int32_t count = 256;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> halfBuf, int4Buf, maskedBuf, backBuf;
    pipe.InitBuffer(halfBuf, count * sizeof(half));
    pipe.InitBuffer(int4Buf, count / 2);
    pipe.InitBuffer(maskedBuf, count / 2);
    pipe.InitBuffer(backBuf, count * sizeof(half));
    AscendC::GlobalTensor<half> inputGm, backGm;
    AscendC::GlobalTensor<int8_t> packedGm, maskedGm;
    inputGm.SetGlobalBuffer((__gm__ half*)input, count);
    backGm.SetGlobalBuffer((__gm__ half*)back, count);
    packedGm.SetGlobalBuffer((__gm__ int8_t*)packed, count / 2);
    maskedGm.SetGlobalBuffer((__gm__ int8_t*)masked, count / 2);
    AscendC::LocalTensor<half> values = halfBuf.Get<half>();
    AscendC::LocalTensor<AscendC::int4b_t> int4s = int4Buf.Get<int8_t>().ReinterpretCast<AscendC::int4b_t>();
    AscendC::LocalTensor<int8_t> maskedBytes = maskedBuf.Get<int8_t>();
    AscendC::LocalTensor<half> restored = backBuf.Get<half>();
    AscendC::DataCopy(values, inputGm, count);
    AscendC::Duplicate(maskedBytes.ReinterpretCast<int16_t>(), int16_t(0x5555), count / 4);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Cast(int4s, values, AscendC::RoundMode::CAST_CEIL, count);
    AscendC::Cast<AscendC::int4b_t, half>(maskedBytes.ReinterpretCast<AscendC::int4b_t>(), values,
                                          AscendC::RoundMode::CAST_CEIL, 64, 2, {1, 1, 2, 8});
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Cast(restored, int4s, AscendC::RoundMode::CAST_NONE, count);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(packedGm, int4Buf.Get<int8_t>(), count / 2);
    AscendC::DataCopy(maskedGm, maskedBytes, count / 2);
    AscendC::DataCopy(backGm, restored, count);
}

TEST_CASE("Cast packs half into int4b_t two to a byte, saturating, and unpacks int4b_t into half") {
    Runtime rt;
    Stream stream;
    constexpr int count = 256;
    std::vector<half> input(count);
    for (int i = 0; i < count; ++i) input[i] = half(-10.0f + 0.3f * float(i % 70));
    void* input_device = nullptr;
    void* packed_device = nullptr;
    void* masked_device = nullptr;
    void* back_device = nullptr;
    REQUIRE_ACL(aclrtMalloc(&input_device, count * sizeof(half), ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMalloc(&packed_device, count / 2, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMalloc(&masked_device, count / 2, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMalloc(&back_device, count * sizeof(half), ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMemcpy(input_device, count * sizeof(half), input.data(), count * sizeof(half),
                            ACL_MEMCPY_HOST_TO_DEVICE));
    REQUIRE(ACLRT_LAUNCH_KERNEL(cast_int4_kernel)(1, stream, input_device, packed_device, masked_device,
                                                  back_device) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    std::vector<uint8_t> packed(count / 2), masked(count / 2);
    std::vector<half> back(count);
    REQUIRE_ACL(aclrtMemcpy(packed.data(), packed.size(), packed_device, packed.size(), ACL_MEMCPY_DEVICE_TO_HOST));
    REQUIRE_ACL(aclrtMemcpy(masked.data(), masked.size(), masked_device, masked.size(), ACL_MEMCPY_DEVICE_TO_HOST));
    REQUIRE_ACL(aclrtMemcpy(back.data(), back.size() * sizeof(half), back_device, back.size() * sizeof(half),
                            ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < count; ++i) {
        CAPTURE(i);
        const int expected = std::min(7, std::max(-8, int(std::ceil(float(input[i])))));
        const int shift = i % 2 == 0 ? 0 : 4;
        const int nibble = (packed[i / 2] >> shift) & 0xF;
        CHECK((nibble >= 8 ? nibble - 16 : nibble) == expected);
        CHECK(float(back[i]) == float(expected));
        // The masked cast wrote slots 0 .. 63 of its two repeats (elements 0 .. 63 and 128 .. 191);
        // the other nibbles keep the 0x5 they were filled with.
        const int masked_nibble = (masked[i / 2] >> shift) & 0xF;
        const bool written = i % 128 < 64;
        CHECK(masked_nibble == (written ? (expected & 0xF) : 0x5));
    }
    aclrtFree(input_device);
    aclrtFree(packed_device);
    aclrtFree(masked_device);
    aclrtFree(back_device);
}

// ---- half: the NPU compiler's native half converts implicitly and mixes with other arithmetic
// types by the usual arithmetic conversions; kernels written that way compile and compute alike.

TEST_CASE("half converts implicitly from and to numbers and promotes like a native floating type") {
    half from_double = 0.01;
    half from_int = 3;
    half from_bool = true;
    float widened = from_double;
    CHECK(widened == float(Eigen::half(0.01f)));
    CHECK(float(from_int) == 3.0f);
    CHECK(float(from_bool) == 1.0f);
    static_assert(std::is_same_v<decltype(from_int + from_int), half>);
    static_assert(std::is_same_v<decltype(from_int * 2), half>);
    static_assert(std::is_same_v<decltype(2 - from_int), half>);
    static_assert(std::is_same_v<decltype(from_int / 2.0f), float>);
    static_assert(std::is_same_v<decltype(from_int + 2.0), double>);
    // half op half rounds the exact result once: 2049 is not a half, 2048 + 1 rounds to even.
    CHECK(float(half(2048) + half(1)) == 2048.0f);
    CHECK(float(half(2048) + 1.0f) == 2049.0f);
    CHECK(float(from_int * 2) == 6.0f);
    CHECK(from_int > 2);
    CHECK(2.5 < from_int);
    CHECK(from_int == half(3.0f));
    half accumulated = 1;
    accumulated += 0.5;
    accumulated *= 4;
    accumulated -= half(1);
    accumulated /= 2;
    CHECK(float(accumulated) == 2.5f);
    CHECK(float(-accumulated) == -2.5f);
    CHECK(float(accumulated++) == 2.5f);
    CHECK(float(accumulated) == 3.5f);
    const int truncated = static_cast<int>(half(2.75f));
    CHECK(truncated == 2);
    // Still an Eigen::half for everything that takes one.
    const Eigen::half& base = accumulated;
    CHECK(float(base) == 3.5f);
    Eigen::Array<half, 4, 1> lanes;
    lanes << 1, 2.5, -3, 0.25f;
    CHECK(float(lanes.sum()) == 0.75f);
    CHECK((lanes.cast<float>() * 2.0f).cast<half>()(1) == 5);
}

constexpr uint32_t kHalfLength = 128;

// dst = src * (scale * 4) + bias, with scale and bias written as the NPU compiler takes them.
extern "C" __global__ __aicore__ void half_scalar_kernel(GM_ADDR src, GM_ADDR dst) {
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<half> in = ub.Alloc<half, kHalfLength>();
    AscendC::LocalTensor<half> out = ub.Alloc<half, kHalfLength>();
    AscendC::GlobalTensor<half> srcGm, dstGm;
    srcGm.SetGlobalBuffer((__gm__ half*)src, kHalfLength);
    dstGm.SetGlobalBuffer((__gm__ half*)dst, kHalfLength);
    AscendC::DataCopy(in, srcGm, kHalfLength);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    half scale = 0.25;
    half bias = 1;
    AscendC::Muls(out, in, scale * 4 + half(0.5), kHalfLength);
    AscendC::Adds(out, out, bias, kHalfLength);
    AscendC::LeakyRelu(out, out, half(0.125), kHalfLength);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(dstGm, out, kHalfLength);
}

TEST_CASE("a kernel with native-style half scalars computes what the NPU computes") {
    Runtime rt;
    Stream stream;
    std::vector<half> input(kHalfLength);
    for (uint32_t i = 0; i < kHalfLength; ++i) input[i] = -8 + 0.125 * i;
    DeviceArray<half> src(input), dst(kHalfLength);
    REQUIRE(ACLRT_LAUNCH_KERNEL(half_scalar_kernel)(1, stream, src.get(), dst.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const std::vector<half> result = dst.read();
    for (uint32_t i = 0; i < kHalfLength; ++i) {
        CAPTURE(i);
        const half scaled = half(float(input[i]) * 1.5f);
        const half shifted = half(float(scaled) + 1.0f);
        const half expected = shifted >= 0 ? shifted : half(float(shifted) * 0.125f);
        CHECK(float(result[i]) == float(expected));
    }
}

// ---- GroupBarrier: arrivers release waiters through GM counters, round after round.

constexpr uint32_t kArrivers = 3;
constexpr uint32_t kWaiters = 9;
constexpr uint32_t kRounds = 3;

// Round r: each arriver adds (r + 1) * (its index + 1) to sums[r] atomically and arrives; each
// waiter waits and records the sum it saw in seen[r * kWaiters + index], which is complete only if
// the waiter waited for every arriver of its round.
extern "C" __global__ __aicore__ void group_barrier_kernel(GM_ADDR workspace, GM_ADDR sums, GM_ADDR seen) {
    AscendC::TPipe pipe;
    AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> barrier(workspace, kArrivers, kWaiters);
    AscendC::GlobalTensor<int32_t> sumGm, seenGm;
    sumGm.SetGlobalBuffer((__gm__ int32_t*)sums, 8);
    seenGm.SetGlobalBuffer((__gm__ int32_t*)seen, kRounds * kWaiters);
    AscendC::InitOutput<int32_t>(sumGm, 8, 0);
    AscendC::SyncAll();
    const int64_t id = AscendC::GetBlockIdx();
    for (uint32_t round = 0; round < kRounds; ++round) {
        if (id < kArrivers) {
            __atomic_fetch_add((__gm__ int32_t*)sums + round, int32_t((round + 1) * (id + 1)), __ATOMIC_ACQ_REL);
            barrier.Arrive(uint32_t(id));
        } else {
            barrier.Wait(uint32_t(id - kArrivers));
            seenGm.SetValue(round * kWaiters + (id - kArrivers), sumGm.GetValue(round));
        }
    }
}
CANOPY_REGISTER_COOPERATIVE_KERNEL(group_barrier_kernel);

extern "C" __global__ __aicore__ void group_barrier_sizes_kernel(GM_ADDR workspace) {
    AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> barrier(workspace, 2, 5);  // 5 waiters of 4 blocks
    barrier.Arrive(0);
}
CANOPY_REGISTER_COOPERATIVE_KERNEL(group_barrier_sizes_kernel);

extern "C" __global__ __aicore__ void group_barrier_block_parallel_kernel(GM_ADDR workspace) {
    AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> barrier(workspace, 1, 1);
    if (AscendC::GetBlockIdx() == 0) barrier.Arrive(0);
    else barrier.Wait(0);
}

TEST_CASE("GroupBarrier releases the waiters once every arriver arrived, round after round") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t blocks = kArrivers + kWaiters;  // more blocks than the machine has workers
    DeviceArray<uint8_t> workspace(kWaiters * 512);
    DeviceArray<int32_t> sums(8), seen(kRounds * kWaiters);
    REQUIRE(ACLRT_LAUNCH_KERNEL(group_barrier_kernel)(blocks, stream, workspace.get(), sums.get(), seen.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const std::vector<int32_t> result = seen.read();
    for (uint32_t round = 0; round < kRounds; ++round) {
        const int32_t total = int32_t((round + 1) * (1 + 2 + 3));
        for (uint32_t waiter = 0; waiter < kWaiters; ++waiter) {
            CAPTURE(round);
            CAPTURE(waiter);
            CHECK(result[round * kWaiters + waiter] == total);
        }
    }
    // The counters in the workspace: every line's arrive counter at rounds x arrivers, wait counter
    // at rounds x waiters.
    const std::vector<uint8_t> counters = workspace.read();
    for (uint32_t line = 0; line < kWaiters; ++line) {
        uint32_t arrived = 0, waited = 0;
        std::memcpy(&arrived, counters.data() + line * 512, sizeof(arrived));
        std::memcpy(&waited, counters.data() + line * 512 + 64, sizeof(waited));
        CHECK(arrived == kRounds * kArrivers);
        CHECK(waited == kRounds * kWaiters);
    }

    SUBCASE("more waiters than blocks fail the launch with 507015") {
        DeviceArray<uint8_t> small(8 * 512);
        REQUIRE(ACLRT_LAUNCH_KERNEL(group_barrier_sizes_kernel)(4, stream, small.get()) == 0u);
        CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
        const std::string message = recent_error();
        CHECK(message.find("GroupBarrier") != std::string::npos);
        CHECK(message.find("waitSize 5 must each be in [1, 4]") != std::string::npos);
    }
    SUBCASE("a block-parallel launch fails instead of hanging") {
        DeviceArray<uint8_t> small(512);
        REQUIRE(ACLRT_LAUNCH_KERNEL(group_barrier_block_parallel_kernel)(2, stream, small.get()) == 0u);
        CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
        const std::string message = recent_error();
        CHECK(message.find("GroupBarrier") != std::string::npos);
        CHECK(message.find("CANOPY_REGISTER_COOPERATIVE_KERNEL") != std::string::npos);
    }
}
