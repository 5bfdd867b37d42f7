// The asynchronous MTE2 and MTE3 model (canopy/kernel/deferred_moves.h): GM -> UB copies land when
// something needs their bytes, binary instructions over such copies compute from GM, and their
// results go to GM straight from the sources, as stores that land when something needs the GM bytes
// they write or read. Every case is a kernel whose result shows when a move or a store lands too
// late, from the wrong source, in the wrong order or not at all.
// The kernel assert under test must survive the Release build's NDEBUG.
#undef NDEBUG
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

// x and y copied into the UB by copy_in_pair, with the pipe and queue that hold them.
struct CopiedPair {
    AscendC::TPipe pipe;
    PairQueue in;
    AscendC::LocalTensor<float> x, y;
    CopiedPair(GM_ADDR xs, GM_ADDR ys) {
        pipe.InitBuffer(in, 2, kTile * sizeof(float));
        copy_in_pair(in, xs, ys, x, y);
    }
    void free() {
        in.FreeTensor(x);
        in.FreeTensor(y);
    }
};

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
    const float by_pointer = reinterpret_cast<const float*>(tile.GetPhyAddr())[kTile + 3];
    AscendC::GlobalTensor<float> result = global(out, 3);
    result.SetValue(0, by_value);
    result.SetValue(1, by_reference);
    result.SetValue(2, by_pointer);
    in.queue.FreeTensor(tile);
}

// A copy still holds the GM bytes it was issued over when the same block then overwrites them:
// x -> tile, y -> other, other -> x (MTE3), tile -> out. out must be the old x, x the old y.
extern "C" __global__ __aicore__ void deferred_snapshot_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR out) {
    CopiedPair copied(x, y);
    AscendC::DataCopy(global(x, kTile), copied.y, kTile);
    AscendC::DataCopy(global(out, kTile), copied.x, kTile);
    copied.free();
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

// ---- stores

// z = x + y over `tiles` tiles through double-buffered queues, the add operator's shape, walking the
// tiles forward (each store continues the last) or backward (none does, and more are pending than
// a block keeps).
extern "C" __global__ __aicore__ void stored_sums_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t tiles,
                                                         int32_t backward) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> inX, inY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outZ;
    pipe.InitBuffer(inX, 2, kTile * sizeof(float));
    pipe.InitBuffer(inY, 2, kTile * sizeof(float));
    pipe.InitBuffer(outZ, 2, kTile * sizeof(float));
    const AscendC::GlobalTensor<float> xs = global(x, tiles * kTile), ys = global(y, tiles * kTile),
                                       zs = global(z, tiles * kTile);
    for (uint32_t t = 0; t < tiles; ++t) {
        const uint32_t first = (backward ? tiles - 1 - t : t) * kTile;
        AscendC::LocalTensor<float> xLocal = inX.AllocTensor<float>(), yLocal = inY.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xs[first], kTile);
        AscendC::DataCopy(yLocal, ys[first], kTile);
        inX.EnQue(xLocal);
        inY.EnQue(yLocal);
        xLocal = inX.DeQue<float>();
        yLocal = inY.DeQue<float>();
        AscendC::LocalTensor<float> sum = outZ.AllocTensor<float>();
        AscendC::Add(sum, xLocal, yLocal, kTile);
        outZ.EnQue(sum);
        inX.FreeTensor(xLocal);
        inY.FreeTensor(yLocal);
        sum = outZ.DeQue<float>();
        AscendC::DataCopy(zs[first], sum, kTile);
        outZ.FreeTensor(sum);
    }
}

// How a kernel reads z back after storing x + y there, or overwrites a source of that store.
enum StoreFollowUp : int32_t {
    read_by_copy = 0,     // DataCopy z into the UB, store it to out
    read_by_value = 1,    // out[i] = z.GetValue(i)
    overwrite_x = 2,      // x[i] = -1 through SetValue; out = z
    barrier_all = 3,      // PipeBarrier<PIPE_ALL>, then out[i] = raw z[i] (the address taken before the store)
    flag_mte3_s = 4,      // SetFlag/WaitFlag<MTE3_S>, then the raw read
    dcache_clean = 5,     // DataCacheCleanAndInvalid on z, then the raw read
    address_taken = 6,    // z.GetPhyAddr() after the store, then the raw read
    read_bypassing = 7,   // out[i] = ReadGmByPassDCache(z + i)
    copied_back_read_by_value = 8,  // DataCopy z into the UB, out[i] = its GetValue(i)
    copied_back_then_read = 9,      // as read_by_copy, then out.GetValue lands the store to out alone
};

extern "C" __global__ __aicore__ void stored_then_used_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR out,
                                                              int32_t follow_up) {
    AscendC::TPipe pipe;
    PairQueue in;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
    pipe.InitBuffer(in, 2, kTile * sizeof(float));
    pipe.InitBuffer(outQueue, 1, kTile * sizeof(float));
    const AscendC::GlobalTensor<float> zs = global(z, kTile), outs = global(out, kTile);
    const float* raw = reinterpret_cast<const float*>(z);
    AscendC::LocalTensor<float> xLocal, yLocal;
    copy_in_pair(in, x, y, xLocal, yLocal);
    AscendC::LocalTensor<float> sum = outQueue.AllocTensor<float>();
    AscendC::Add(sum, xLocal, yLocal, kTile);
    outQueue.EnQue(sum);
    sum = outQueue.DeQue<float>();
    AscendC::DataCopy(zs, sum, kTile);
    in.FreeTensor(xLocal);
    in.FreeTensor(yLocal);
    outQueue.FreeTensor(sum);
    switch (follow_up) {
    case read_by_copy:
    case copied_back_then_read: {
        // The copy of z to out is a store reading what the store to z writes: it lands after it.
        AscendC::LocalTensor<float> back = outQueue.AllocTensor<float>();
        AscendC::DataCopy(back, zs, kTile);
        outQueue.EnQue(back);
        back = outQueue.DeQue<float>();
        AscendC::DataCopy(outs, back, kTile);
        outQueue.FreeTensor(back);
        if (follow_up == copied_back_then_read) (void)outs.GetValue(0);
        return;
    }
    case read_by_value:
        for (uint32_t i = 0; i < kTile; ++i) outs.SetValue(i, zs.GetValue(i));
        return;
    case copied_back_read_by_value: {
        // The copy lands at the first GetValue, and the store it reads must land before it.
        AscendC::LocalTensor<float> back = outQueue.AllocTensor<float>();
        AscendC::DataCopy(back, zs, kTile);
        outQueue.EnQue(back);
        back = outQueue.DeQue<float>();
        for (uint32_t i = 0; i < kTile; ++i) outs.SetValue(i, back.GetValue(i));
        outQueue.FreeTensor(back);
        return;
    }
    case overwrite_x:
        for (uint32_t i = 0; i < kTile; ++i) global(x, kTile).SetValue(i, -1.0f);
        AscendC::PipeBarrier<PIPE_ALL>();
        for (uint32_t i = 0; i < kTile; ++i) outs.SetValue(i, raw[i]);
        return;
    case barrier_all:
        AscendC::PipeBarrier<PIPE_ALL>();
        break;
    case flag_mte3_s:
        AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
        break;
    case dcache_clean:
        AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE,
                                          AscendC::DcciDst::CACHELINE_OUT>(zs);
        break;
    case address_taken:
        raw = zs.GetPhyAddr();
        break;
    case read_bypassing:
        for (uint32_t i = 0; i < kTile; ++i) outs.SetValue(i, AscendC::ReadGmByPassDCache((__gm__ float*)z + i));
        return;
    }
    for (uint32_t i = 0; i < kTile; ++i) outs.SetValue(i, raw[i]);
}

// Four stores, out written by the second and the last: out must hold the last one's bytes (y).
extern "C" __global__ __aicore__ void stores_in_order_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR out, GM_ADDR other) {
    CopiedPair copied(x, y);
    AscendC::DataCopy(global(other, 2 * kTile), copied.x, kTile);
    AscendC::DataCopy(global(out, kTile), copied.x, kTile);
    AscendC::DataCopy(global(other, 2 * kTile)[kTile], copied.y, kTile);
    AscendC::DataCopy(global(out, kTile), copied.y, kTile);
    copied.free();
}

// Block 0 stores x + y to z; after a SyncAll block 1 copies z to out.
extern "C" __global__ __aicore__ void stored_across_blocks_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR out) {
    CopiedPair copied(x, y);
    if (AscendC::GetBlockIdx() == 0) {
        AscendC::Add(copied.x, copied.x, copied.y, kTile);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::DataCopy(global(z, kTile), copied.x, kTile);
    }
    AscendC::SyncAll();
    if (AscendC::GetBlockIdx() == 1) {
        AscendC::DataCopy(copied.y, global(z, kTile), kTile);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        AscendC::DataCopy(global(out, kTile), copied.y, kTile);
    }
    copied.free();
}
CANOPY_REGISTER_COOPERATIVE_KERNEL(stored_across_blocks_kernel);

// x + y stored to z, then an assert fails: the launch fails, and the store MTE3 was given lands.
extern "C" __global__ __aicore__ void stored_then_fails_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    CopiedPair copied(x, y);
    AscendC::Add(copied.x, copied.x, copied.y, kTile);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(global(z, kTile), copied.x, kTile);
    assert(AscendC::GetBlockIdx() < 0);
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

std::vector<float> sums(const std::vector<float>& x, const std::vector<float>& y) {
    std::vector<float> sum(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) sum[i] = x[i] + y[i];
    return sum;
}

TEST_CASE("stores of streamed tiles land whole, whether they continue each other or not") {
    Runtime rt;
    Stream stream;
    constexpr uint32_t tiles = 40;  // more than the 16 stores a block keeps pending
    std::vector<float> x(tiles * kTile), y(tiles * kTile);
    for (uint32_t i = 0; i < tiles * kTile; ++i) {
        x[i] = float(i);
        y[i] = 0.5f * float(i % 97);
    }
    for (const int32_t backward : {0, 1}) {
        CAPTURE(backward);
        DeviceArray<float> xs(x), ys(y), zs(std::vector<float>(tiles * kTile, 0.0f));
        REQUIRE(ACLRT_LAUNCH_KERNEL(stored_sums_kernel)(1, stream, xs.get(), ys.get(), zs.get(), tiles, backward) ==
                0u);
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
        CHECK(zs.read() == sums(x, y));
    }
}

TEST_CASE("a store lands before its destination is read or a source overwritten, and before a sync or a raw address") {
    Runtime rt;
    Stream stream;
    const std::vector<float> x = ramp(1), y = ramp(30);
    for (const StoreFollowUp follow_up : {read_by_copy, read_by_value, overwrite_x, barrier_all, flag_mte3_s,
                                          dcache_clean, address_taken, read_bypassing, copied_back_read_by_value,
                                          copied_back_then_read}) {
        CAPTURE(follow_up);
        DeviceArray<float> xs(x), ys(y), zs(std::vector<float>(kTile, 0.0f)), out(std::vector<float>(kTile, 0.0f));
        REQUIRE(ACLRT_LAUNCH_KERNEL(stored_then_used_kernel)(1, stream, xs.get(), ys.get(), zs.get(), out.get(),
                                                             follow_up) == 0u);
        REQUIRE_ACL(aclrtSynchronizeStream(stream));
        CHECK(zs.read() == sums(x, y));
        CHECK(out.read() == sums(x, y));
    }
}

TEST_CASE("stores to the same GM land in the order issued") {
    Runtime rt;
    Stream stream;
    const std::vector<float> x = ramp(1), y = ramp(500);
    DeviceArray<float> xs(x), ys(y), out(std::vector<float>(kTile, 0.0f)), other(std::vector<float>(2 * kTile, 0.0f));
    REQUIRE(ACLRT_LAUNCH_KERNEL(stores_in_order_kernel)(1, stream, xs.get(), ys.get(), out.get(), other.get()) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(out.read() == y);
    std::vector<float> both = x;
    both.insert(both.end(), y.begin(), y.end());
    CHECK(other.read() == both);
}

TEST_CASE("a store lands before SyncAll lets another block read it") {
    Runtime rt;
    Stream stream;
    const std::vector<float> x = ramp(2), y = ramp(-7);
    DeviceArray<float> xs(x), ys(y), zs(std::vector<float>(kTile, 0.0f)), out(std::vector<float>(kTile, 0.0f));
    REQUIRE(ACLRT_LAUNCH_KERNEL(stored_across_blocks_kernel)(2, stream, xs.get(), ys.get(), zs.get(), out.get()) == 0u);
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK(out.read() == sums(x, y));
}

TEST_CASE("a failing block's stores still reach GM") {
    Runtime rt;
    Stream stream;
    const std::vector<float> x = ramp(4), y = ramp(40);
    DeviceArray<float> xs(x), ys(y), zs(std::vector<float>(kTile, 0.0f));
    REQUIRE(ACLRT_LAUNCH_KERNEL(stored_then_fails_kernel)(1, stream, xs.get(), ys.get(), zs.get()) == 0u);
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK(zs.read() == sums(x, y));
}
