#pragma once
// TBufPool: a region of the UB (or L1) that a TPipe hands out once and a kernel carves into queues,
// TBufs and nested pools on its own, then Resets to carve the same memory differently for the next
// stage of the program.
//
// TPipe::InitBufPool(pool, len) reserves `len` bytes (rounded up to 32) of the pool position's memory
// after everything the pipe has carved; InitBufPool(pool, len, shareBuf) makes `pool` a second view of
// shareBuf's region (its start and length, `len` at most that length), so that two stages reuse one
// memory. TBufPool::InitBuffer carves buffers in order from the pool's region, at most bufIDSize of
// them; TBufPool::InitBufPool carves a nested pool the same way. Reset waits for the pool's freed
// buffers (the NPU waits on their free events) and empties the pool: its region is gone until the
// next InitBufPool, and every queue, TBuf and pool carved from it can no longer be used. The buffers
// themselves are BufferRecords in the pool (as the NPU keeps its buffer handles in the pool), so the
// queue state checks of pipe.h apply to them unchanged.
//
// EXTERN_IMPL_BUFPOOL gives a user class the pool's state and accessors, so that the class carves its
// buffers itself through TQue / TBuf::InitStartBufHandle and InitBufHandle.
#include <cstdint>
#include <exception>
#include <string>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/local_memory.h"
#include "canopy/kernel/ascendc/pipe.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/pipes.h"

namespace AscendC {

constexpr uint32_t defaultBufIDSize = 4;

// A pool's state: its buffer handles and its region, offsets into its position's memory.
template <uint32_t bufIDSize = defaultBufIDSize>
struct TBufPoolImpl {
    canopy::kernel::ascendc::BufferRecord buf_[bufIDSize]{};
    uint32_t startAddr_ = 0;
    uint32_t maxAddr_ = 0;  // the next byte to carve
    uint32_t maxLen_ = 0;
    uint8_t curBufSize_ = 0;
    uint8_t isReset_ = 1;
    // Canopy: where the region came from, and the pool's name for messages.
    canopy::kernel::ascendc::PoolEpoch epoch;
    TPosition position = TPosition::VECCALC;
    const char* name = "TBufPool";

    static constexpr uint32_t capacity = bufIDSize;
};

}  // namespace AscendC

namespace canopy::kernel::ascendc {

template <class Impl>
inline std::string pool_held_buffers(const Impl& pool) {
    std::string held;
    uint32_t count = 0;
    for (uint32_t i = 0; i < pool.curBufSize_ && i < Impl::capacity; ++i) {
        const BufferRecord& record = pool.buf_[i];
        if (!record.queued || record.state == BufferState::free || record.address == nullptr) continue;
        ++count;
        held += describe(count == 1 ? "" : "; ", "buffer ", i, " (", AscendC::PositionName(record.position), ", ",
                         record.bytes, " bytes) is ", state_name(record.state));
    }
    if (count == 0) return {};
    return describe(count, " of the pool's ", uint32_t(pool.curBufSize_), " buffers are still held: ", held);
}

template <class Impl>
inline void pool_require_carved(const Impl& pool, const char* api) {
    if (pool.maxLen_ == 0 || !pool.epoch.carved()) [[unlikely]] {
        fail_misuse(api, pool.name, " has no memory: it was not initialised with InitBufPool, or it (or the pool "
                    "or TPipe it was carved from) has been Reset since");
    }
}

// Empties `pool`; its region and everything carved from it end here.
template <class Impl>
inline void pool_reset(Impl& pool, const char* api) {
    const std::string held = pool_held_buffers(pool);
    if (!held.empty()) [[unlikely]] fail_misuse(api, held, "; FreeTensor them before the Reset");
    // The NPU waits for the free event of every buffer freed since its last allocation before it hands
    // the memory out again; the pipe model orders everything after those frees.
    for (uint32_t i = 0; i < pool.curBufSize_ && i < Impl::capacity; ++i) {
        if (pool.buf_[i].queued) canopy::kernel::pipe_acquire(pool.buf_[i].handed_over);
    }
    pool.curBufSize_ = 0;
    pool.startAddr_ = 0;
    pool.maxAddr_ = 0;
    pool.maxLen_ = 0;
    pool.isReset_ = 1;
    ++pool.epoch.generation;
}

// A pool going away (the kernel returns): buffers still held are reported like the TPipe's.
template <class Impl>
inline void pool_retire(const Impl& pool) {
    if (std::uncaught_exceptions() != 0) return;
    const std::string held = pool_held_buffers(pool);
    if (!held.empty()) canopy::kernel::defer_fault(kApiMisuse, pool.name, held + " when the kernel returned");
}

// Gives `pool` the region [offset, offset + bytes) of `position`'s memory.
template <class Impl>
inline void pool_take_region(Impl& pool, AscendC::TPosition position, uint32_t offset, uint32_t bytes,
                             const PoolEpoch& source) {
    pool.position = position;
    pool.startAddr_ = offset;
    pool.maxAddr_ = offset;
    pool.maxLen_ = bytes;
    pool.curBufSize_ = 0;
    pool.isReset_ = 0;
    const uint32_t generation = pool.epoch.generation + 1;
    pool.epoch = source;
    pool.epoch.generation = generation;
}

inline uint32_t pool_length(uint32_t len, const char* api) {
    if (len == 0) [[unlikely]] fail_misuse(api, "a pool of 0 bytes; the length must be at least 1");
    return static_cast<uint32_t>(align_up(len, AscendC::ONE_BLK_SIZE));
}

template <class Pool>
struct PoolCarving {
    static constexpr AscendC::TPosition position = Pool::poolPos;
    static_assert(AscendC::GetPhyType(position) == AscendC::Hardware::UB ||
                      AscendC::GetPhyType(position) == AscendC::Hardware::L1,
                  "a TBufPool's position is in the UB (VECIN/VECOUT/VECCALC) or L1 (A1/B1/C1)");

    // TPipe::InitBufPool(pool, len).
    template <class Impl>
    static bool from_pipe(AscendC::TPipe& pipe, Impl& pool, uint32_t len) {
        const uint32_t bytes = pool_length(len, "TPipe::InitBufPool");
        const uint32_t offset = pipe.canopy_reserve(position, bytes, "TPipe::InitBufPool");
        pool_take_region(pool, position, offset, bytes, PoolEpoch{&pipe, pipe.canopy_generation(), nullptr, 0, 0});
        return true;
    }

    // TPipe::InitBufPool(pool, len, shareBuf) and TBufPool::InitBufPool(pool, len, shareBuf).
    template <class Shared, class Impl, class SharedImpl>
    static bool share(AscendC::TPipe&, Impl& pool, uint32_t len, const SharedImpl& shared) {
        return share_region(pool, len, shared, "InitBufPool");
    }

    template <class Impl, class SharedImpl>
    static bool share_region(Impl& pool, uint32_t len, const SharedImpl& shared, const char* api) {
        const uint32_t bytes = pool_length(len, api);
        pool_require_carved(shared, api);
        if (AscendC::GetPhyType(shared.position) != AscendC::GetPhyType(position)) [[unlikely]] {
            fail_misuse(api, "the pool is in ", AscendC::HardwareName(AscendC::GetPhyType(position)),
                        " but the pool it shares is in ", AscendC::HardwareName(AscendC::GetPhyType(shared.position)));
        }
        if (bytes > shared.maxLen_) [[unlikely]] {
            fail_misuse(api, "a pool of ", len, " bytes (", bytes, " after rounding to 32) cannot share a pool of ",
                        shared.maxLen_, " bytes");
        }
        // The same region, owned by what the shared pool was carved from: a Reset of either pool does
        // not end the other, a Reset of their source ends both.
        pool_take_region(pool, position, shared.startAddr_, shared.maxLen_, shared.epoch);
        return true;
    }

    // TBufPool::InitBufPool(pool, len): the next `len` bytes of `parent`.
    template <class Impl, class ParentImpl>
    static bool from_pool(ParentImpl& parent, Impl& pool, uint32_t len) {
        const char* api = "TBufPool::InitBufPool";
        const uint32_t bytes = pool_length(len, api);
        pool_require_carved(parent, api);
        if (AscendC::GetPhyType(parent.position) != AscendC::GetPhyType(position)) [[unlikely]] {
            fail_misuse(api, "the pool is in ", AscendC::HardwareName(AscendC::GetPhyType(position)),
                        " but the pool it is carved from is in ",
                        AscendC::HardwareName(AscendC::GetPhyType(parent.position)));
        }
        if (uint64_t(parent.maxAddr_) + bytes > uint64_t(parent.startAddr_) + parent.maxLen_) [[unlikely]] {
            fail_misuse(api, "a pool of ", len, " bytes (", bytes, " after rounding to 32) does not fit: ",
                        parent.maxAddr_ - parent.startAddr_, " of the parent pool's ", parent.maxLen_,
                        " bytes are already carved");
        }
        const uint32_t offset = parent.maxAddr_;
        parent.maxAddr_ += bytes;
        pool_take_region(pool, position, offset, bytes,
                         PoolEpoch{parent.epoch.pipe, parent.epoch.pipe_generation, &parent.epoch,
                                   parent.epoch.generation, 0});
        return true;
    }

};

// Checks that `record` is one of `pool`'s handles; returns its index.
template <class Impl>
inline uint32_t pool_handle_index(const Impl& pool, const BufferRecord* record, const char* api) {
    const auto address = reinterpret_cast<std::uintptr_t>(record);
    const auto first = reinterpret_cast<std::uintptr_t>(&pool.buf_[0]);
    const auto end = first + sizeof(BufferRecord) * Impl::capacity;
    if (address < first || address >= end || (address - first) % sizeof(BufferRecord) != 0) [[unlikely]] {
        fail_misuse(api, "the buffer handle is not one of ", pool.name, "'s ", Impl::capacity,
                    " handles (GetBufHandle gives them)");
    }
    return static_cast<uint32_t>((address - first) / sizeof(BufferRecord));
}

// Fills `record` with [offset, offset + len) of the pool's memory for a buffer at `position`.
template <class Impl>
inline void pool_fill(const Impl& pool, BufferRecord& record, AscendC::TPosition position, uint32_t offset,
                      uint32_t len, const void* owner, bool queued, const char* api) {
    pool_require_carved(pool, api);
    if (AscendC::GetPhyType(position) != AscendC::GetPhyType(pool.position)) [[unlikely]] {
        fail_misuse(api, "a ", AscendC::PositionName(position), " buffer cannot come from a pool in ",
                    AscendC::HardwareName(AscendC::GetPhyType(pool.position)));
    }
    if (len == 0) [[unlikely]] fail_misuse(api, "a buffer of 0 bytes; the length must be at least 1");
    const std::size_t bytes = align_up(len, AscendC::ONE_BLK_SIZE);
    if (offset % AscendC::ONE_BLK_SIZE != 0 || offset < pool.startAddr_ ||
        uint64_t(offset) + bytes > uint64_t(pool.startAddr_) + pool.maxLen_) [[unlikely]] {
        fail_misuse(api, "a ", bytes, "-byte buffer at offset ", offset, " is not a 32-byte aligned part of ",
                    pool.name, "'s region [", pool.startAddr_, ", ", uint64_t(pool.startAddr_) + pool.maxLen_, ")");
    }
    const LocalMemory memory = local_memory(AscendC::GetPhyType(position));
    record = BufferRecord{memory.base + offset, static_cast<uint32_t>(bytes), position, BufferState::free, owner,
                          queued, {}};
}

// TBufPool::InitBuffer: `num` buffers of `len` bytes from the pool's next free bytes and handles.
template <class Impl>
inline BufferRecord* pool_carve(Impl& pool, AscendC::TPosition position, uint32_t num, uint32_t len,
                                const void* owner, bool queued, const char* api) {
    pool_require_carved(pool, api);
    if (num == 0 || len == 0) [[unlikely]] {
        fail_misuse(api, "asked for ", num, " buffers of ", len, " bytes; both must be at least 1");
    }
    if (pool.curBufSize_ + num > Impl::capacity) [[unlikely]] {
        fail_misuse(api, "asked for ", num, " more buffers with ", uint32_t(pool.curBufSize_), " already carved; ",
                    pool.name, " holds at most ", Impl::capacity, " buffers (its bufIDSize)");
    }
    const uint64_t bytes = align_up(len, AscendC::ONE_BLK_SIZE);
    if (pool.maxAddr_ + bytes * num > uint64_t(pool.startAddr_) + pool.maxLen_) [[unlikely]] {
        fail_misuse(api, pool.name, " capacity exceeded: ", num, " x ", len, " bytes (", bytes,
                    " bytes each after rounding to 32) requested with ", pool.maxAddr_ - pool.startAddr_,
                    " bytes already carved, but the pool holds ", pool.maxLen_, " bytes");
    }
    BufferRecord* first = &pool.buf_[pool.curBufSize_];
    for (uint32_t i = 0; i < num; ++i) {
        pool_fill(pool, pool.buf_[pool.curBufSize_], position, pool.maxAddr_, len, owner, queued, api);
        ++pool.curBufSize_;
        pool.maxAddr_ += static_cast<uint32_t>(bytes);
    }
    return first;
}

template <class Impl>
inline AscendC::TPipe& pool_pipe(const Impl& pool) {
    return *const_cast<AscendC::TPipe*>(pool.epoch.pipe);
}

}  // namespace canopy::kernel::ascendc

namespace AscendC {

template <TPosition pos, uint32_t bufIDSize = defaultBufIDSize>
class TBufPool {
public:
    static constexpr TPosition poolPos = pos;
    static constexpr bool isTbufPool = true;
    static_assert(GetPhyType(pos) == Hardware::UB || GetPhyType(pos) == Hardware::L1,
                  "a TBufPool's position is in the UB (VECIN/VECOUT/VECCALC) or L1 (A1/B1/C1)");
    static_assert(bufIDSize >= 1 && bufIDSize <= QBUF_MAX_LEN, "a TBufPool holds 1 to 64 buffers");

    __aicore__ inline TBufPool() { tBufPoolImpl.position = pos; }
    __aicore__ inline ~TBufPool() { canopy::kernel::ascendc::pool_retire(tBufPoolImpl); }
    TBufPool(const TBufPool&) = delete;
    TBufPool& operator=(const TBufPool&) = delete;

    template <class Queue>
    __aicore__ inline bool InitBuffer(Queue& que, uint8_t num, uint32_t len) {
        if (que.canopy_live()) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("TBufPool::InitBuffer", que.canopy_name(), " already has buffers");
        }
        canopy::kernel::ascendc::BufferRecord* first = canopy::kernel::ascendc::pool_carve(
            tBufPoolImpl, Queue::canopy_position, num, len, &que, true, "TBufPool::InitBuffer");
        que.canopy_attach(canopy::kernel::ascendc::pool_pipe(tBufPoolImpl), first, num,
                          tBufPoolImpl.epoch.pipe_generation, &tBufPoolImpl.epoch);
        return true;
    }

    template <TPosition bufPos>
    __aicore__ inline bool InitBuffer(TBuf<bufPos>& buf, uint32_t len) {
        if (buf.canopy_live()) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("TBufPool::InitBuffer", "TBuf<", PositionName(bufPos),
                                                  "> already has a buffer");
        }
        canopy::kernel::ascendc::BufferRecord* record = canopy::kernel::ascendc::pool_carve(
            tBufPoolImpl, bufPos, 1, len, &buf, false, "TBufPool::InitBuffer");
        buf.canopy_attach(canopy::kernel::ascendc::pool_pipe(tBufPoolImpl), record,
                          tBufPoolImpl.epoch.pipe_generation, &tBufPoolImpl.epoch);
        return true;
    }

    template <class Pool>
    __aicore__ inline bool InitBufPool(Pool& bufPool, uint32_t len) {
        return canopy::kernel::ascendc::PoolCarving<Pool>::from_pool(tBufPoolImpl, bufPool.tBufPoolImpl, len);
    }

    template <class Pool, class Shared>
    __aicore__ inline bool InitBufPool(Pool& bufPool, uint32_t len, Shared& shareBuf) {
        canopy::kernel::ascendc::pool_require_carved(tBufPoolImpl, "TBufPool::InitBufPool");
        return canopy::kernel::ascendc::PoolCarving<Pool>::share_region(bufPool.tBufPoolImpl, len,
                                                                        shareBuf.tBufPoolImpl,
                                                                        "TBufPool::InitBufPool");
    }

    __aicore__ inline void Reset() { canopy::kernel::ascendc::pool_reset(tBufPoolImpl, "TBufPool::Reset"); }

protected:
    TBufPoolImpl<bufIDSize> tBufPoolImpl;

private:
    friend class TPipe;
    template <TPosition, uint32_t>
    friend class TBufPool;
};

// TQue / TQueBind from a custom pool: InitStartBufHandle names the queue's `num` handles, then
// InitBufHandle fills each; the queue is usable once all are filled.
template <TPosition src, TPosition dst, int32_t depth, auto mask>
__aicore__ inline void TQueBind<src, dst, depth, mask>::InitStartBufHandle(TBufHandle startBufhandle, uint8_t num,
                                                                          uint32_t len) {
    using namespace canopy::kernel::ascendc;
    if (startBufhandle == nullptr || num == 0 || num > QBUF_MAX_LEN || len == 0) [[unlikely]] {
        fail_misuse("InitStartBufHandle", canopy_name(), ": ", num, " buffers of ", len,
                    " bytes from a ", startBufhandle == nullptr ? "null" : "valid",
                    " handle; the handle must come from GetBufHandle and both counts be at least 1 (at most ",
                    QBUF_MAX_LEN, " buffers)");
    }
    pipe_ = nullptr;
    pool_ = nullptr;
    buffers_ = reinterpret_cast<BufferRecord*>(startBufhandle);
    buffer_count_ = num;
    pending_handles_ = num == 64 ? ~uint64_t(0) : (uint64_t(1) << num) - 1;
}

template <TPosition src, TPosition dst, int32_t depth, auto mask>
template <typename Pool>
__aicore__ inline void TQueBind<src, dst, depth, mask>::InitBufHandle(Pool* bufPool, uint32_t index,
                                                                     TBufHandle bufhandle, uint32_t curPoolAddr,
                                                                     uint32_t len) {
    using namespace canopy::kernel::ascendc;
    (void)index;  // the NPU fills the handle it is given, whatever the index says
    if (bufPool == nullptr || buffers_ == nullptr || pending_handles_ == 0) [[unlikely]] {
        fail_misuse("InitBufHandle", canopy_name(), bufPool == nullptr ? ": the pool is null"
                                                                       : ": call InitStartBufHandle first");
    }
    auto& pool = bufPool->tBufPoolImpl;
    BufferRecord* record = reinterpret_cast<BufferRecord*>(bufhandle);
    pool_handle_index(pool, record, "InitBufHandle");
    const std::ptrdiff_t slot = record - buffers_;
    if (slot < 0 || slot >= buffer_count_) [[unlikely]] {
        fail_misuse("InitBufHandle", "the handle is not one of the ", uint32_t(buffer_count_), " handles "
                    "InitStartBufHandle gave ", canopy_name());
    }
    pool_handle_index(pool, buffers_ + buffer_count_ - 1, "InitBufHandle");
    pool_fill(pool, *record, canopy_position, curPoolAddr, len, this, true, "InitBufHandle");
    pending_handles_ &= ~(uint64_t(1) << slot);
    if (pending_handles_ == 0) {
        canopy_attach(pool_pipe(pool), buffers_, buffer_count_, pool.epoch.pipe_generation, &pool.epoch);
    }
}

template <TPosition pos>
__aicore__ inline void TBuf<pos>::InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len) {
    using namespace canopy::kernel::ascendc;
    if (startBufhandle == nullptr || num != 1 || len == 0) [[unlikely]] {
        fail_misuse("InitStartBufHandle", "TBuf<", PositionName(pos), ">: ", num, " buffers of ", len,
                    " bytes; a TBuf takes one buffer of at least 1 byte from a GetBufHandle handle");
    }
    pipe_ = nullptr;
    pool_ = nullptr;
    record_ = reinterpret_cast<BufferRecord*>(startBufhandle);
    pending_handle_ = true;
}

template <TPosition pos>
template <typename Pool>
__aicore__ inline void TBuf<pos>::InitBufHandle(Pool* bufPool, uint32_t index, TBufHandle bufhandle,
                                                uint32_t curPoolAddr, uint32_t len) {
    using namespace canopy::kernel::ascendc;
    (void)index;
    if (bufPool == nullptr || !pending_handle_) [[unlikely]] {
        fail_misuse("InitBufHandle", "TBuf<", PositionName(pos), ">",
                    bufPool == nullptr ? ": the pool is null" : ": call InitStartBufHandle first");
    }
    auto& pool = bufPool->tBufPoolImpl;
    BufferRecord* record = reinterpret_cast<BufferRecord*>(bufhandle);
    pool_handle_index(pool, record, "InitBufHandle");
    if (record != record_) [[unlikely]] {
        fail_misuse("InitBufHandle", "the handle is not the one InitStartBufHandle gave TBuf<", PositionName(pos),
                    ">");
    }
    pool_fill(pool, *record, pos, curPoolAddr, len, this, false, "InitBufHandle");
    pending_handle_ = false;
    canopy_attach(pool_pipe(pool), record, pool.epoch.pipe_generation, &pool.epoch);
}

}  // namespace AscendC

// A user pool class that carves its buffers itself: the pool state, Init / Reset, and the accessors
// its InitBuffer uses (GetBufHandle, Get/SetCurAddr, Get/SetCurBufSize). Its constructor calls Init().
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                                                  \
public:                                                                                                        \
    static constexpr AscendC::TPosition poolPos = POSITION;                                                    \
    static constexpr int bufIDSize = BUFID_SIZE;                                                               \
    static constexpr bool isTbufPool = true;                                                                   \
    static_assert(AscendC::GetPhyType(POSITION) == AscendC::Hardware::UB ||                                    \
                      AscendC::GetPhyType(POSITION) == AscendC::Hardware::L1,                                  \
                  "a TBufPool's position is in the UB (VECIN/VECOUT/VECCALC) or L1 (A1/B1/C1)");                \
    __aicore__ inline ~EXT_BUFPOOL() { canopy::kernel::ascendc::pool_retire(tBufPoolImpl); }                  \
    __aicore__ inline void Reset() { canopy::kernel::ascendc::pool_reset(tBufPoolImpl, #EXT_BUFPOOL "::Reset"); } \
    __aicore__ inline void Init() {                                                                            \
        tBufPoolImpl.name = #EXT_BUFPOOL;                                                                      \
        tBufPoolImpl.position = POSITION;                                                                      \
    }                                                                                                          \
    __aicore__ inline AscendC::TBufHandle GetBufHandle(uint8_t offset) {                                       \
        if (offset >= BUFID_SIZE) [[unlikely]] {                                                               \
            canopy::kernel::ascendc::fail_misuse(#EXT_BUFPOOL "::GetBufHandle", "handle ", uint32_t(offset),     \
                                                  " of a pool with ", BUFID_SIZE, " handles");                 \
        }                                                                                                      \
        return reinterpret_cast<AscendC::TBufHandle>(tBufPoolImpl.buf_ + offset);                              \
    }                                                                                                          \
    __aicore__ inline void SetCurAddr(uint32_t curAddr) {                                                      \
        if (curAddr < tBufPoolImpl.startAddr_ ||                                                               \
            uint64_t(curAddr) > uint64_t(tBufPoolImpl.startAddr_) + tBufPoolImpl.maxLen_) [[unlikely]] {       \
            canopy::kernel::ascendc::fail_misuse(#EXT_BUFPOOL "::SetCurAddr", "offset ", curAddr,               \
                                                  " is outside the pool's region [", tBufPoolImpl.startAddr_,   \
                                                  ", ", uint64_t(tBufPoolImpl.startAddr_) + tBufPoolImpl.maxLen_, \
                                                  "]");                                                        \
        }                                                                                                      \
        tBufPoolImpl.maxAddr_ = curAddr;                                                                       \
    }                                                                                                          \
    __aicore__ inline uint32_t GetCurAddr() { return tBufPoolImpl.maxAddr_; }                                  \
    __aicore__ inline void SetCurBufSize(uint8_t curBufSize) {                                                 \
        if (curBufSize > BUFID_SIZE) [[unlikely]] {                                                            \
            canopy::kernel::ascendc::fail_misuse(#EXT_BUFPOOL "::SetCurBufSize", uint32_t(curBufSize),          \
                                                  " buffers in a pool with ", BUFID_SIZE, " handles");         \
        }                                                                                                      \
        tBufPoolImpl.curBufSize_ = curBufSize;                                                                 \
    }                                                                                                          \
    __aicore__ inline uint8_t GetCurBufSize() { return tBufPoolImpl.curBufSize_; }                             \
                                                                                                               \
protected:                                                                                                     \
    AscendC::TBufPoolImpl<BUFID_SIZE> tBufPoolImpl;                                                            \
                                                                                                               \
private:                                                                                                       \
    friend class AscendC::TPipe;                                                                               \
    template <AscendC::TPosition, AscendC::TPosition, int32_t, auto>                                           \
    friend class AscendC::TQueBind;                                                                            \
    template <AscendC::TPosition>                                                                              \
    friend class AscendC::TBuf;                                                                                \
    template <AscendC::TPosition, uint32_t>                                                                    \
    friend class AscendC::TBufPool
