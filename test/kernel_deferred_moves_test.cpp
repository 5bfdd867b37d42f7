// The asynchronous MTE2 model (canopy/kernel/deferred_moves.h): GM -> UB copies land when something
// needs their bytes, binary instructions over such copies compute from GM, and their results go to
// GM straight from the sources. Every case is a race-free kernel whose result shows when a move
// lands too late, from the wrong source or not at all.
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "vector_support.h"

using namespace canopy_test;

namespace {

constexpr uint32_t kTile = 64;  // floats: two 128-byte halves

// A queue hand-over between the copy in and the reader, so that no WaitFlag or barrier lands the
// copy first: only the reader's own access can.
struct InQueue {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> queue;
    InQueue() { pipe.InitBuffer(queue, 1, 2 * kTile * sizeof(float)); }
};

AscendC::GlobalTensor<float> global(GM_ADDR address, uint32_t count) {
    AscendC::GlobalTensor<float> tensor;
    tensor.SetGlobalBuffer((__gm__ float*)address, count);
    return tensor;
}

using PairQueue = AscendC::TQue<AscendC::QuePosition::VECIN, 2>;

// x and y copied into the two buffers of `in` and handed over through the queue.
void copy_in_pair(PairQueue& in, GM_ADDR x, GM_ADDR y, AscendC::LocalTensor<float>& xLocal,
                  AscendC::LocalTensor<float>& yLocal) {
    xLocal = in.AllocTensor<float>();
    yLocal = in.AllocTensor<float>();
    AscendC::DataCopy(xLocal, global(x, kTile), kTile);
    AscendC::DataCopy(yLocal, global(y, kTile), kTile);
    in.EnQue(xLocal);
    in.EnQue(yLocal);
    xLocal = in.DeQue<float>();
    yLocal = in.DeQue<float>();
}

// Scalar reads of a copied tile: GetValue (reported to the pipe model), operator() and a raw
// pointer from GetPhyAddr (neither is). out[0..2] = x[1], x[2], x[3].
extern "C" __global__ __aicore__ void deferred_scalar_reads_kernel(GM_ADDR x, GM_ADDR out) {
    InQueue in;
    AscendC::LocalTensor<float> tile = in.queue.AllocTensor<float>();
    AscendC::DataCopy(tile, global(x, kTile), kTile);
    in.queue.EnQue(tile);
    tile = in.queue.DeQue<float>();
    const float by_value = tile.GetValue(1);
    AscendC::DataCopy(tile[kTile], global(x, kTile), kTile);  // deferred again, over other bytes
    in.queue.EnQue(tile);
    tile = in.queue.DeQue<float>();
    const float by_reference = tile(kTile + 2);
    AscendC::DataCopy(tile[kTile], global(x, kTile), kTile);
    in.queue.EnQue(tile);
    tile = in.queue.DeQue<float>();
    const float by_pointer = tile.GetPhyAddr()[kTile + 3];
    AscendC::GlobalTensor<float> result = global(out, 3);
    result.SetValue(0, by_value);
    result.SetValue(1, by_reference);
    result.SetValue(2, by_pointer);
    in.queue.FreeTensor(tile);
}

// A copy still holds the GM bytes it was issued over when the same block then overwrites them:
// x -> tile, y -> other, other -> x (MTE3), tile -> out. out must be the old x, x the old y.
extern "C" __global__ __aicore__ void deferred_snapshot_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR out) {
    AscendC::TPipe pipe;
    PairQueue in;
    pipe.InitBuffer(in, 2, kTile * sizeof(float));
    AscendC::LocalTensor<float> tile, other;
    copy_in_pair(in, x, y, tile, other);
    AscendC::DataCopy(global(x, kTile), other, kTile);
    AscendC::DataCopy(global(out, kTile), tile, kTile);
    in.FreeTensor(tile);
    in.FreeTensor(other);
}

// The add pipeline's shape, with the sum used twice more: out = x + y (straight from GM), then
// square = (x + y)^2 from the sum still in the UB, then x = x + y over the copy's own source.
extern "C" __global__ __aicore__ void deferred_add_reuse_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR out, GM_ADDR square) {
    AscendC::TPipe pipe;
    PairQueue in;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outQueue;
    pipe.InitBuffer(in, 2, kTile * sizeof(float));
    pipe.InitBuffer(outQueue, 2, kTile * sizeof(float));
    AscendC::LocalTensor<float> xLocal, yLocal;
    copy_in_pair(in, x, y, xLocal, yLocal);
    AscendC::LocalTensor<float> sum = outQueue.AllocTensor<float>();
    AscendC::LocalTensor<float> product = outQueue.AllocTensor<float>();
    AscendC::Add(sum, xLocal, yLocal, kTile);
    outQueue.EnQue(sum);
    sum = outQueue.DeQue<float>();
    AscendC::DataCopy(global(out, kTile), sum, kTile);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
    AscendC::Mul(product, sum, sum, kTile);
    outQueue.EnQue(product);
    product = outQueue.DeQue<float>();
    AscendC::DataCopy(global(square, kTile), product, kTile);
    AscendC::DataCopy(global(x, kTile), sum, kTile);
    in.FreeTensor(xLocal);
    in.FreeTensor(yLocal);
    outQueue.FreeTensor(sum);
    outQueue.FreeTensor(product);
}

// A vector instruction writing half of a copied tile: the other half must still arrive.
extern "C" __global__ __aicore__ void deferred_partial_overwrite_kernel(GM_ADDR x, GM_ADDR out) {
    InQueue in;
    AscendC::LocalTensor<float> tile = in.queue.AllocTensor<float>();
    AscendC::DataCopy(tile, global(x, kTile), kTile);
    in.queue.EnQue(tile);
    tile = in.queue.DeQue<float>();
    AscendC::Duplicate(tile, 7.0f, kTile / 2);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(global(out, kTile), tile, kTile);
    in.queue.FreeTensor(tile);
}

// Block 0 copies x in; after a SyncAll block 1 overwrites x; after another, block 0 stores its
// tile: the x of before the first SyncAll.
extern "C" __global__ __aicore__ void deferred_across_blocks_kernel(GM_ADDR x, GM_ADDR out) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> in;
    pipe.InitBuffer(in, 1, kTile * sizeof(float));
    AscendC::LocalTensor<float> tile = in.AllocTensor<float>();
    if (AscendC::GetBlockIdx() == 0) AscendC::DataCopy(tile, global(x, kTile), kTile);
    AscendC::SyncAll();
    if (AscendC::GetBlockIdx() == 1) {
        for (uint32_t i = 0; i < kTile; ++i) global(x, kTile).SetValue(i, -1.0f);
    }
    AscendC::SyncAll();
    if (AscendC::GetBlockIdx() == 0) AscendC::DataCopy(global(out, kTile), tile, kTile);
    in.FreeTensor(tile);
}
CANOPY_REGISTER_COOPERATIVE_KERNEL(deferred_across_blocks_kernel);

// A scalar write bypassing the data cache over a copy's source: the copy keeps the old x[0].
extern "C" __global__ __aicore__ void deferred_bypass_write_kernel(GM_ADDR x, GM_ADDR out) {
    InQueue in;
    AscendC::LocalTensor<float> tile = in.queue.AllocTensor<float>();
    AscendC::DataCopy(tile, global(x, kTile), kTile);
    in.queue.EnQue(tile);
    tile = in.queue.DeQue<float>();
    AscendC::WriteGmByPassDCache((__gm__ float*)x, -1.0f);
    AscendC::DataCopy(global(out, kTile), tile, kTile);
    in.queue.FreeTensor(tile);
}

// The add pipeline over x and y; with `store` false the sum is never read.
// What becomes of the sum of x and y, which the model records rather than computes.
enum SumFate : int32_t { sum_unread = 0, sum_stored = 1, sum_overwritten = 2 };

extern "C" __global__ __aicore__ void deferred_sum_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR out, int32_t fate) {
    AscendC::TPipe pipe;
    PairQueue in;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(in, 2, kTile * sizeof(float));
    pipe.InitBuffer(outQueue, 1, kTile * sizeof(float));
    AscendC::LocalTensor<float> xLocal, yLocal;
    copy_in_pair(in, x, y, xLocal, yLocal);
    AscendC::LocalTensor<float> sum = outQueue.AllocTensor<float>();
    AscendC::Add(sum, xLocal, yLocal, kTile);
    outQueue.EnQue(sum);
    sum = outQueue.DeQue<float>();
    if (fate == sum_stored) AscendC::DataCopy(global(out, kTile), sum, kTile);
    in.FreeTensor(xLocal);
    in.FreeTensor(yLocal);
    outQueue.FreeTensor(sum);
    if (fate == sum_overwritten) {
        AscendC::LocalTensor<float> reused = outQueue.AllocTensor<float>();
        AscendC::DataCopy(reused, global(x, kTile), kTile);
        outQueue.FreeTensor(reused);
    }
}

std::vector<float> ramp(float first) {
    std::vector<float> values(kTile);
    for (uint32_t i = 0; i < kTile; ++i) values[i] = first + float(i);
    return values;
}

}  // namespace

TEST_CASE("a deferred copy lands before a scalar read through GetValue, operator() or GetPhyAddr") {
    Runtime rt;
    Stream stream;
    const std::vector<float> x = ramp(10);
    DeviceArray<float> xs(x), out(std::vector<float>(3, 0.0f));
    REQUIRE(ACLRT_LAUNCH_KERNEL(deferred_scalar_reads_kernel)(1, stream, xs.get(), out.get()) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(out.read() == std::vector<float>{x[1], x[2], x[3]});
}

TEST_CASE("a deferred copy keeps the GM bytes of its issue when the block overwrites them afterwards") {
    Runtime rt;
    Stream stream;
    const std::vector<float> x = ramp(1), y = ramp(1000);
    DeviceArray<float> xs(x), ys(y), out(std::vector<float>(kTile, 0.0f));
    REQUIRE(ACLRT_LAUNCH_KERNEL(deferred_snapshot_kernel)(1, stream, xs.get(), ys.get(), out.get()) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(out.read() == x);
    CHECK(xs.read() == y);
}

TEST_CASE("a sum computed from deferred copies is stored, reused in the UB and written over its own source") {
    Runtime rt;
    Stream stream;
    const std::vector<float> x = ramp(1), y = ramp(-20);
    DeviceArray<float> xs(x), ys(y), out(std::vector<float>(kTile, 0.0f)), square(std::vector<float>(kTile, 0.0f));
    REQUIRE(ACLRT_LAUNCH_KERNEL(deferred_add_reuse_kernel)(1, stream, xs.get(), ys.get(), out.get(), square.get()) ==
            0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    std::vector<float> sum(kTile), squared(kTile);
    for (uint32_t i = 0; i < kTile; ++i) {
        sum[i] = x[i] + y[i];
        squared[i] = sum[i] * sum[i];
    }
    CHECK(out.read() == sum);
    CHECK(square.read() == squared);
    CHECK(xs.read() == sum);
}

TEST_CASE("a vector instruction over part of a deferred copy leaves the rest of the copy to land") {
    Runtime rt;
    Stream stream;
    const std::vector<float> x = ramp(100);
    DeviceArray<float> xs(x), out(std::vector<float>(kTile, 0.0f));
    REQUIRE(ACLRT_LAUNCH_KERNEL(deferred_partial_overwrite_kernel)(1, stream, xs.get(), out.get()) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    std::vector<float> expected = x;
    for (uint32_t i = 0; i < kTile / 2; ++i) expected[i] = 7.0f;
    CHECK(out.read() == expected);
}

TEST_CASE("a deferred copy lands before SyncAll lets another block write its source") {
    Runtime rt;
    Stream stream;
    const std::vector<float> x = ramp(5);
    DeviceArray<float> xs(x), out(std::vector<float>(kTile, 0.0f));
    REQUIRE(ACLRT_LAUNCH_KERNEL(deferred_across_blocks_kernel)(2, stream, xs.get(), out.get()) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(out.read() == x);
    CHECK(xs.read() == std::vector<float>(kTile, -1.0f));
}

TEST_CASE("a deferred copy keeps the GM bytes of its issue when WriteGmByPassDCache overwrites them") {
    Runtime rt;
    Stream stream;
    const std::vector<float> x = ramp(3);
    DeviceArray<float> xs(x), out(std::vector<float>(kTile, 0.0f));
    REQUIRE(ACLRT_LAUNCH_KERNEL(deferred_bypass_write_kernel)(1, stream, xs.get(), out.get()) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(out.read() == x);
    CHECK(xs.read()[0] == -1.0f);
}

TEST_CASE("a sum computed straight into GM saturates, and one never read (or overwritten unread) still sets the overflow status") {
    constexpr float float_max = std::numeric_limits<float>::max();
    Runtime rt;
    REQUIRE_ACL(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
    Stream saturating;
    REQUIRE_ACL(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
    const std::vector<float> big(kTile, float_max);
    DeviceArray<float> xs(big), ys(big), out(std::vector<float>(kTile, 0.0f));

    REQUIRE(ACLRT_LAUNCH_KERNEL(deferred_sum_kernel)(1, saturating, xs.get(), ys.get(), out.get(), sum_stored) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(saturating));
    CHECK(out.read() == big);

    for (const SumFate fate : {sum_unread, sum_overwritten}) {
        CAPTURE(fate);
        Stream detecting;
        REQUIRE_ACL(aclrtSetStreamOverflowSwitch(detecting, 1));
        REQUIRE_ACL(aclrtResetOverflowStatus(detecting));  // the status is the device's
        void* status = nullptr;
        REQUIRE_ACL(aclrtMalloc(&status, 64, ACL_MEM_MALLOC_HUGE_FIRST));
        REQUIRE(ACLRT_LAUNCH_KERNEL(deferred_sum_kernel)(1, detecting, xs.get(), ys.get(), out.get(), fate) == 0u);
        REQUIRE_ACL(aclrtGetOverflowStatus(status, 64, detecting));
        REQUIRE_ACL(aclrtSynchronizeStream(detecting));
        uint32_t flag = 0;
        REQUIRE_ACL(aclrtMemcpy(&flag, sizeof flag, status, sizeof flag, ACL_MEMCPY_DEVICE_TO_HOST));
        CHECK(flag == 1);
        aclrtFree(status);
    }
}
