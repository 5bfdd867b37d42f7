// Local memory management beyond TPipe::InitBuffer: TBufPool (pools from the pipe, pools sharing a
// region, nested pools, custom pools through EXTERN_IMPL_BUFPOOL, Reset) and ListTensorDesc, each
// against results computed on the host and with the misuses that fail the launch with 507015.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "canopy/kernel/launch.h"
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"
#include "support.h"

using namespace canopy_test;

namespace {

constexpr uint32_t kLength = 256;  // floats per stage
constexpr uint32_t kBytes = kLength * sizeof(float);

// out = a op b through three queues of `pool`, the output queue's tensor address reported in `where`.
template <class Pool, class In0, class In1, class Out>
__aicore__ inline void pool_stage(Pool& pool, In0& in0, In1& in1, Out& out, AscendC::GlobalTensor<float>& a,
                                  AscendC::GlobalTensor<float>& b, AscendC::GlobalTensor<float> result, bool add,
                                  uintptr_t& where) {
    pool.InitBuffer(in0, 1, kBytes);
    pool.InitBuffer(in1, 1, kBytes);
    pool.InitBuffer(out, 1, kBytes);
    AscendC::LocalTensor<float> x = in0.template AllocTensor<float>();
    AscendC::LocalTensor<float> y = in1.template AllocTensor<float>();
    where = reinterpret_cast<uintptr_t>(x.GetPhyAddr());
    AscendC::DataCopy(x, a, kLength);
    AscendC::DataCopy(y, b, kLength);
    in0.EnQue(x);
    in1.EnQue(y);
    x = in0.template DeQue<float>();
    y = in1.template DeQue<float>();
    AscendC::LocalTensor<float> z = out.template AllocTensor<float>();
    if (add) AscendC::Add(z, x, y, kLength);
    else AscendC::Mul(z, x, y, kLength);
    out.EnQue(z);
    in0.FreeTensor(x);
    in1.FreeTensor(y);
    z = out.template DeQue<float>();
    AscendC::DataCopy(result, z, kLength);
    out.FreeTensor(z);
}

// CANN's TPipe is copyable, and catlass passes its Resource (which holds the kernel's TPipe) by value.
// A copy carves after what the original had carved, on its own: `by_value` carves one buffer from
// its copy and returns its address. facts: [0] GetTPipePtr() is the original while a copy lives,
// [1] the copy's buffer sits right behind the original's, [2] the original, carving again afterwards,
// starts where the copy had, [3] a copy assigned the original's state carves behind the original's
// buffers too. The original's queue holds a tensor throughout, and y = 3 x goes through it after the
// copies are gone.
__aicore__ inline uintptr_t by_value(AscendC::TPipe copy, AscendC::TPipe* original, int32_t& registered) {
    registered = AscendC::GetTPipePtr() == original ? 1 : 0;
    AscendC::TBuf<AscendC::TPosition::VECCALC> extra;
    copy.InitBuffer(extra, kBytes);
    return reinterpret_cast<uintptr_t>(extra.Get<float>().GetPhyAddr());
}

extern "C" __global__ __aicore__ void pipe_copy_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR facts) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> outBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    AscendC::GlobalTensor<int32_t> factGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, kLength);
    yGm.SetGlobalBuffer((__gm__ float*)y, kLength);
    factGm.SetGlobalBuffer((__gm__ int32_t*)facts, 4);
    pipe.InitBuffer(inQueue, 1, kBytes);
    AscendC::LocalTensor<float> in = inQueue.AllocTensor<float>();
    const uintptr_t inAddress = reinterpret_cast<uintptr_t>(in.GetPhyAddr());
    int32_t registered = 0;
    const uintptr_t copied = by_value(pipe, &pipe, registered);
    uintptr_t assignedAddress = 0;
    {
        AscendC::TPipe other(pipe);
        AscendC::TBuf<AscendC::TPosition::VECCALC> first, second;
        other.InitBuffer(first, 4 * kBytes);
        other = pipe;
        other.InitBuffer(second, kBytes);
        assignedAddress = reinterpret_cast<uintptr_t>(second.Get<float>().GetPhyAddr());
        other.Destroy();
    }
    pipe.InitBuffer(outBuf, kBytes);
    AscendC::LocalTensor<float> out = outBuf.Get<float>();
    factGm.SetValue(0, registered);
    factGm.SetValue(1, copied == inAddress + kBytes ? 1 : 0);
    factGm.SetValue(2, reinterpret_cast<uintptr_t>(out.GetPhyAddr()) == copied ? 1 : 0);
    factGm.SetValue(3, assignedAddress == inAddress + kBytes ? 1 : 0);
    AscendC::DataCopy(in, xGm, kLength);
    inQueue.EnQue(in);
    in = inQueue.DeQue<float>();
    AscendC::Muls(out, in, 3.0f, kLength);
    inQueue.FreeTensor(in);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm, out, kLength);
}

// Stage 1 (a + b) in pool1, stage 2 (a * b) in pool2, which shares pool1's region; then the same
// inside a nested pool of pool0. facts: [0] the stages' first tensors share an address, [1] the
// nested pool starts at pool0's start, [2] the buffer carved after it sits right behind it.
extern "C" __global__ __aicore__ void buf_pool_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR facts) {
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<float> aGm, bGm, yGm;
    AscendC::GlobalTensor<int32_t> factGm;
    aGm.SetGlobalBuffer((__gm__ float*)a, kLength);
    bGm.SetGlobalBuffer((__gm__ float*)b, kLength);
    yGm.SetGlobalBuffer((__gm__ float*)y, 4 * kLength);
    factGm.SetGlobalBuffer((__gm__ int32_t*)facts, 3);
    AscendC::TBufPool<AscendC::TPosition::VECCALC> pool0, pool1, pool2;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> in0, in1, in2, in3;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> out0, out1;
    AscendC::TBuf<AscendC::TPosition::VECCALC> after;

    pipe.InitBufPool(pool1, 3 * kBytes);
    pipe.InitBufPool(pool2, 3 * kBytes, pool1);
    uintptr_t first = 0, second = 0;
    pool_stage(pool1, in0, in1, out0, aGm, bGm, yGm[0], true, first);
    pool1.Reset();
    pool_stage(pool2, in2, in3, out1, aGm, bGm, yGm[kLength], false, second);
    pool2.Reset();
    factGm.SetValue(0, first == second);

    pipe.InitBufPool(pool0, 4 * kBytes);
    pool0.InitBufPool(pool1, 3 * kBytes);
    pool0.InitBuffer(after, kBytes);
    pool0.InitBufPool(pool2, 3 * kBytes, pool1);
    pool_stage(pool1, in0, in1, out0, aGm, bGm, yGm[2 * kLength], true, first);
    pool1.Reset();
    pool_stage(pool2, in2, in3, out1, aGm, bGm, yGm[3 * kLength], false, second);
    pool2.Reset();
    const uintptr_t tail = reinterpret_cast<uintptr_t>(after.Get<float>().GetPhyAddr());
    factGm.SetValue(1, first == second);
    factGm.SetValue(2, tail == first + 3 * kBytes);
    pool0.Reset();
}

// A pool that carves its buffers itself, as EXTERN_IMPL_BUFPOOL lets a kernel do.
class SpacedPool {
public:
    __aicore__ inline SpacedPool() { Init(); }

    // Each buffer is followed by a 32-byte gap.
    template <class Queue>
    __aicore__ inline bool InitBuffer(Queue& que, uint8_t num, uint32_t len) {
        len = (len + 31) / 32 * 32;
        auto handle = GetBufHandle(GetCurBufSize());
        const uint32_t address = GetCurAddr();
        que.InitStartBufHandle(handle, num, len);
        for (uint32_t i = 0; i < num; ++i) {
            que.InitBufHandle(this, i, handle + i * sizeof(canopy::kernel::ascendc::BufferRecord),
                              address + i * (len + 32), len);
        }
        SetCurAddr(address + num * (len + 32));
        SetCurBufSize(GetCurBufSize() + num);
        return true;
    }
    EXTERN_IMPL_BUFPOOL(SpacedPool, AscendC::TPosition::VECCALC, 8);
};

// y = a + b through a custom pool's queues; gap[0] reports the spacing of the two input tensors.
extern "C" __global__ __aicore__ void custom_pool_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR gap) {
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<float> aGm, bGm, yGm;
    AscendC::GlobalTensor<int32_t> gapGm;
    aGm.SetGlobalBuffer((__gm__ float*)a, kLength);
    bGm.SetGlobalBuffer((__gm__ float*)b, kLength);
    yGm.SetGlobalBuffer((__gm__ float*)y, kLength);
    gapGm.SetGlobalBuffer((__gm__ int32_t*)gap, 1);
    SpacedPool pool;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> in;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> out;
    pipe.InitBufPool(pool, 4 * (kBytes + 32));
    pool.InitBuffer(in, 2, kBytes);
    pool.InitBuffer(out, 1, kBytes);
    AscendC::LocalTensor<float> x = in.AllocTensor<float>();
    AscendC::LocalTensor<float> z = in.AllocTensor<float>();
    gapGm.SetValue(0, int32_t(reinterpret_cast<uintptr_t>(z.GetPhyAddr()) - reinterpret_cast<uintptr_t>(x.GetPhyAddr())));
    AscendC::DataCopy(x, aGm, kLength);
    AscendC::DataCopy(z, bGm, kLength);
    in.EnQue(x);
    in.EnQue(z);
    x = in.DeQue<float>();
    z = in.DeQue<float>();
    AscendC::LocalTensor<float> sum = out.AllocTensor<float>();
    AscendC::Add(sum, x, z, kLength);
    out.EnQue(sum);
    in.FreeTensor(x);
    in.FreeTensor(z);
    sum = out.DeQue<float>();
    AscendC::DataCopy(yGm, sum, kLength);
    out.FreeTensor(sum);
    pool.Reset();
}

// ---- TBufPool misuses, each in block `faulty_block` only.

extern "C" __global__ __aicore__ void pool_overflow_kernel(int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TBufPool<AscendC::TPosition::VECCALC> pool;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> queue;
    pipe.InitBufPool(pool, 1000);
    pool.InitBuffer(queue, 2, 512);  // 1024 bytes of a 1024-byte pool: fits
    AscendC::TBuf<AscendC::TPosition::VECCALC> more;
    pool.InitBuffer(more, 32);
}

extern "C" __global__ __aicore__ void pool_too_many_buffers_kernel(int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TBufPool<AscendC::TPosition::VECCALC, 2> pool;
    AscendC::TQue<AscendC::TPosition::VECIN, 3> queue;
    pipe.InitBufPool(pool, 4096);
    pool.InitBuffer(queue, 3, 256);
}

extern "C" __global__ __aicore__ void pool_use_after_reset_kernel(int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TBufPool<AscendC::TPosition::VECCALC> pool;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> queue;
    pipe.InitBufPool(pool, 4096);
    pool.InitBuffer(queue, 1, 256);
    pool.Reset();
    AscendC::LocalTensor<float> tensor = queue.AllocTensor<float>();
    queue.FreeTensor(tensor);
}

extern "C" __global__ __aicore__ void pool_reset_held_kernel(int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TBufPool<AscendC::TPosition::VECCALC> pool;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> queue;
    pipe.InitBufPool(pool, 4096);
    pool.InitBuffer(queue, 1, 256);
    AscendC::LocalTensor<float> tensor = queue.AllocTensor<float>();
    pool.Reset();
    queue.FreeTensor(tensor);
}

extern "C" __global__ __aicore__ void pool_beyond_ub_kernel(int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TBufPool<AscendC::TPosition::VECCALC> pool0, pool1;
    pipe.InitBufPool(pool0, 128 * 1024);
    pipe.InitBufPool(pool1, 128 * 1024);
}

extern "C" __global__ __aicore__ void nested_pool_overflow_kernel(int64_t faulty_block) {
    if (AscendC::GetBlockIdx() != faulty_block) return;
    AscendC::TPipe pipe;
    AscendC::TBufPool<AscendC::TPosition::VECCALC> outer, inner;
    pipe.InitBufPool(outer, 1024);
    outer.InitBufPool(inner, 2048);
}

// ---- ListTensorDesc: facts[0] the count, [1..4] both tensors' shapes, [5] their indexes' sum; y is
// tensor 1's data scaled by 2, read through GetDataObj.
constexpr uint32_t kListElements = 64;

extern "C" __global__ __aicore__ void list_tensor_kernel(GM_ADDR list, GM_ADDR y, GM_ADDR facts) {
    AscendC::ListTensorDesc inputs((__gm__ void*)list);
    AscendC::GlobalTensor<int64_t> factGm;
    factGm.SetGlobalBuffer((__gm__ int64_t*)facts, 6);
    factGm.SetValue(0, inputs.GetSize());
    uint64_t shape[2] = {};
    AscendC::TensorDesc<float> desc;
    desc.SetShapeAddr(shape);
    int64_t indexes = 0;
    for (uint32_t i = 0; i < 2; ++i) {
        inputs.GetDesc(desc, i);
        factGm.SetValue(1 + 2 * i, int64_t(desc.GetShape(0)));
        factGm.SetValue(2 + 2 * i, int64_t(desc.GetShape(1)));
        indexes += int64_t(desc.GetIndex());
    }
    factGm.SetValue(5, indexes);
    AscendC::GlobalTensor<float> second = desc.GetDataObj();
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, kListElements);
    __gm__ float* first = inputs.GetDataPtr<float>(0);
    for (uint32_t i = 0; i < kListElements; ++i) yGm.SetValue(i, 2.0f * second.GetValue(i) + first[i]);
}

extern "C" __global__ __aicore__ void list_tensor_index_kernel(GM_ADDR list) {
    AscendC::ListTensorDesc inputs((__gm__ void*)list);
    static_cast<void>(inputs.GetDataPtr<float>(2));
}

extern "C" __global__ __aicore__ void list_tensor_length_kernel(GM_ADDR list) {
    AscendC::ListTensorDesc inputs((__gm__ void*)list, 64, 2);  // the list takes 72 bytes
    static_cast<void>(inputs);
}

// The host's layout of a two-tensor list with 2-D shapes: the data offset, two descriptors of
// (dim | index << 32, shape0, shape1), two data pointers.
struct TwoTensorList {
    uint64_t data_offset;
    uint64_t descriptors[2][3];
    uint64_t pointers[2];
};

TwoTensorList make_list(const void* first, const void* second) {
    TwoTensorList list{};
    list.data_offset = (1 + 3 * 2) * sizeof(uint64_t);
    list.descriptors[0][0] = 2;
    list.descriptors[0][1] = 8;
    list.descriptors[0][2] = 8;
    list.descriptors[1][0] = 2 | (uint64_t(1) << 32);
    list.descriptors[1][1] = 4;
    list.descriptors[1][2] = 16;
    list.pointers[0] = reinterpret_cast<uintptr_t>(first);
    list.pointers[1] = reinterpret_cast<uintptr_t>(second);
    return list;
}

void expect_launch_fault(aclrtStream stream, uint32_t launch_rc, std::initializer_list<const char*> fragments) {
    REQUIRE(launch_rc == 0u);
    CHECK(aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::string message = recent_error();
    MESSAGE(message);
    for (const char* fragment : fragments) {
        CAPTURE(fragment);
        CHECK(message.find(fragment) != std::string::npos);
    }
    CHECK_ACL(aclrtSynchronizeStream(stream));
}

std::vector<float> ramp(std::size_t count, float start, float step) {
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = start + step * float(i);
    return values;
}

}  // namespace

TEST_CASE("TBufPool: a shared pool reuses its region after Reset, nested pools carve their parent in order") {
    Runtime rt;
    Stream stream;
    const std::vector<float> a = ramp(kLength, 1.0f, 0.5f), b = ramp(kLength, -3.0f, 0.25f);
    DeviceArray<float> aDev(a), bDev(b), y(4 * kLength);
    DeviceArray<int32_t> facts(3);
    REQUIRE(ACLRT_LAUNCH_KERNEL(buf_pool_kernel)(2, stream, aDev.get(), bDev.get(), y.get(), facts.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const std::vector<float> result = y.read();
    for (uint32_t i = 0; i < kLength; ++i) {
        CAPTURE(i);
        CHECK(result[i] == a[i] + b[i]);
        CHECK(result[kLength + i] == a[i] * b[i]);
        CHECK(result[2 * kLength + i] == a[i] + b[i]);
        CHECK(result[3 * kLength + i] == a[i] * b[i]);
    }
    CHECK(facts.read() == std::vector<int32_t>{1, 1, 1});
}

TEST_CASE("a TPipe copies as CANN's does: a snapshot that carves on its own, the original stays the block's pipe") {
    Runtime rt;
    Stream stream;
    const std::vector<float> x = ramp(kLength, -7.0f, 0.125f);
    DeviceArray<float> xDev(x), y(kLength);
    DeviceArray<int32_t> facts(4);
    REQUIRE(ACLRT_LAUNCH_KERNEL(pipe_copy_kernel)(1, stream, xDev.get(), y.get(), facts.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const std::vector<float> result = y.read();
    for (uint32_t i = 0; i < kLength; ++i) {
        CAPTURE(i);
        CHECK(result[i] == 3.0f * x[i]);
    }
    CHECK(facts.read() == std::vector<int32_t>{1, 1, 1, 1});
}

TEST_CASE("EXTERN_IMPL_BUFPOOL: a custom pool places its queues' buffers where it chooses") {
    Runtime rt;
    Stream stream;
    const std::vector<float> a = ramp(kLength, 2.0f, 1.0f), b = ramp(kLength, 0.5f, -0.5f);
    DeviceArray<float> aDev(a), bDev(b), y(kLength);
    DeviceArray<int32_t> gap(1);
    REQUIRE(ACLRT_LAUNCH_KERNEL(custom_pool_kernel)(1, stream, aDev.get(), bDev.get(), y.get(), gap.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const std::vector<float> result = y.read();
    for (uint32_t i = 0; i < kLength; ++i) CHECK(result[i] == a[i] + b[i]);
    CHECK(gap.read()[0] == int32_t(kBytes + 32));
}

TEST_CASE("TBufPool misuses fail the launch with 507015") {
    Runtime rt;
    Stream stream;
    SUBCASE("a buffer beyond the pool's length") {
        expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(pool_overflow_kernel)(2, stream, int64_t(1)),
                            {"pool_overflow_kernel", "block 1/2", "TBufPool::InitBuffer", "capacity exceeded",
                             "1024 bytes already carved", "the pool holds 1024 bytes"});
    }
    SUBCASE("more buffers than the pool's bufIDSize") {
        expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(pool_too_many_buffers_kernel)(2, stream, int64_t(1)),
                            {"TBufPool::InitBuffer", "asked for 3 more buffers", "at most 2 buffers"});
    }
    SUBCASE("a queue of a pool that has been Reset") {
        expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(pool_use_after_reset_kernel)(2, stream, int64_t(1)),
                            {"AllocTensor", "TQue<VECIN, depth 1>", "TBufPool that has been Reset since"});
    }
    SUBCASE("Reset with a buffer still allocated") {
        expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(pool_reset_held_kernel)(2, stream, int64_t(1)),
                            {"TBufPool::Reset", "1 of the pool's 1 buffers are still held",
                             "VECIN, 256 bytes) is allocated"});
    }
    SUBCASE("pools beyond the UB") {
        expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(pool_beyond_ub_kernel)(2, stream, int64_t(1)),
                            {"TPipe::InitBufPool", "UB capacity exceeded", "131072 bytes already carved",
                             "196608 bytes"});
    }
    SUBCASE("a nested pool longer than what is left of its parent") {
        expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(nested_pool_overflow_kernel)(2, stream, int64_t(1)),
                            {"TBufPool::InitBufPool", "a pool of 2048 bytes", "0 of the parent pool's 1024 bytes"});
    }
}

TEST_CASE("ListTensorDesc decodes the host's list: count, shapes, indexes and data pointers") {
    Runtime rt;
    Stream stream;
    const std::vector<float> first = ramp(kListElements, 0.0f, 1.0f), second = ramp(kListElements, 5.0f, -0.5f);
    DeviceArray<float> firstDev(first), secondDev(second), y(kListElements);
    const TwoTensorList host = make_list(firstDev.get(), secondDev.get());
    DeviceArray<uint64_t> list(std::vector<uint64_t>(reinterpret_cast<const uint64_t*>(&host),
                                                     reinterpret_cast<const uint64_t*>(&host + 1)));
    DeviceArray<int64_t> facts(6);
    REQUIRE(ACLRT_LAUNCH_KERNEL(list_tensor_kernel)(1, stream, list.get(), y.get(), facts.get()) == 0u);
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK(facts.read() == std::vector<int64_t>{2, 8, 8, 4, 16, 1});
    const std::vector<float> result = y.read();
    for (uint32_t i = 0; i < kListElements; ++i) CHECK(result[i] == 2.0f * second[i] + first[i]);

    SUBCASE("an index past the list") {
        expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(list_tensor_index_kernel)(1, stream, list.get()),
                            {"ListTensorDesc::GetDataPtr", "tensor 2 of a list of 2"});
    }
    SUBCASE("a length that disagrees with the header") {
        expect_launch_fault(stream, ACLRT_LAUNCH_KERNEL(list_tensor_length_kernel)(1, stream, list.get()),
                            {"ListTensorDesc", "takes 72 bytes", "2 tensors and 64 bytes"});
    }
}
