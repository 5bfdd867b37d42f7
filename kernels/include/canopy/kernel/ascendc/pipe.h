#pragma once
// TPipe, TQue / TQueBind, TBuf and LocalMemAllocator: how a kernel carves its block's local memories
// into buffers and passes them between the stages of its pipeline.
//
// TPipe::InitBuffer cuts a memory (the UB for VECIN/VECOUT/VECCALC, L1 for A1/B1, L0A/L0B/L0C for
// A2/B2/CO1) into 32-byte aligned buffers, lengths rounded up to 32 bytes, at most 64 per pipe. A
// TQue owns its buffers and tracks each one's state: free -> AllocTensor -> allocated -> EnQue ->
// enqueued -> DeQue -> dequeued -> FreeTensor -> free. Each misuse CANN's CPU debug mode asserts on
// is a KernelFault here (ACL_ERROR_RT_AICORE_EXCEPTION) naming the API and the sizes, and buffers
// still held when the TPipe goes away (the kernel returns) are reported through defer_fault.
#include <array>
#include <cstdint>
#include <exception>
#include <string>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/local_memory.h"
#include "canopy/kernel/ascendc/local_tensor.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/pipes.h"

namespace AscendC {
class TPipe;
// A buffer handle as custom TBufPools (EXTERN_IMPL_BUFPOOL) pass them: here a BufferRecord's address.
using TBufHandle = uint8_t*;
}

namespace canopy::kernel::ascendc {

enum class BufferState : uint8_t { free, allocated, enqueued, dequeued };

inline const char* state_name(BufferState state) {
    switch (state) {
        case BufferState::free: return "free";
        case BufferState::allocated: return "allocated";
        case BufferState::enqueued: return "enqueued";
        case BufferState::dequeued: return "dequeued";
    }
    return "unknown";
}

// One buffer InitBuffer carved.
struct BufferRecord {
    std::byte* address = nullptr;
    uint32_t bytes = 0;  // rounded up to 32
    AscendC::TPosition position = AscendC::TPosition::VECCALC;
    BufferState state = BufferState::free;
    const void* owner = nullptr;  // the TQue / TBuf it was carved for
    bool queued = false;          // a TQue's buffer (allocated and freed), not a TBuf's (always usable)
    // The instructions issued up to the buffer's last EnQue or FreeTensor (pipe_release): the next
    // DeQue or AllocTensor orders everything after them, as the queue's hardware flags do on the NPU.
    uint32_t handed_over = 0;
};

// The TPipe the running block has alive, for GetTPipePtr() and the one-TPipe-at-a-time rule. It
// remembers the block it was registered by, so that a pipe a previous kernel leaked on this thread
// (never destroyed) does not count against the next block.
struct LivePipe {
    AscendC::TPipe* pipe = nullptr;
    int64_t index = 0;
    int64_t count = 0;
    const std::byte* ub = nullptr;
    const char* kernel = nullptr;

    bool registered_by_running_block() const {
        const BlockContext& block = current_block();
        return pipe != nullptr && index == block.index && count == block.count && ub == block.ub &&
               kernel == block.kernel;
    }
};

inline LivePipe& live_pipe() {
    thread_local LivePipe live;
    return live;
}

// Where a TBufPool's memory came from (tbuf_pool.h): its TPipe, and the pool it was carved from if
// any. A Reset of the pipe, of that pool or of this one ends every buffer carved from this pool.
struct PoolEpoch {
    const AscendC::TPipe* pipe = nullptr;
    uint32_t pipe_generation = 0;
    const PoolEpoch* parent = nullptr;
    uint32_t parent_generation = 0;
    uint32_t generation = 1;  // bumped by every carving and Reset of the pool
    bool carved() const;
};

template <class Pool>
struct PoolCarving;

}  // namespace canopy::kernel::ascendc

namespace AscendC {

template <TPosition src, TPosition dst, int32_t depth, auto mask>
class TQueBind;
template <TPosition pos>
class TBuf;

class TPipe {
public:
    __aicore__ inline TPipe() {
        canopy::kernel::ascendc::LivePipe& live = canopy::kernel::ascendc::live_pipe();
        if (live.registered_by_running_block()) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse(
                "TPipe", "a second TPipe was created while this block's first one is alive; a kernel "
                         "uses one TPipe at a time (call Destroy() on the first before creating another)");
        }
        const canopy::kernel::BlockContext& block = canopy::kernel::current_block();
        live = {this, block.index, block.count, block.ub, block.kernel};
    }

    // The kernel has returned (or is unwinding from a fault): buffers its queues still hold are a
    // misuse, reported through defer_fault since a destructor cannot throw. During unwinding the
    // kernel has already failed and its queues are legitimately mid-flight, so nothing is added.
    __aicore__ inline ~TPipe() {
        if (std::uncaught_exceptions() == 0) {
            std::string held = HeldBuffers();
            if (!held.empty()) canopy::kernel::defer_fault(canopy::kernel::ascendc::kApiMisuse, "TPipe", held);
        }
        Unregister();
    }

    // CANN's TPipe is copyable (its copy constructor and assignment are the implicit ones): a copy is
    // a snapshot of the pipe's bookkeeping (what has been carved, which event ids are allocated) that
    // is not the block's registered pipe (GetTPipePtr() still returns the original), and carving from
    // it continues after what the original had carved. The buffers carved before the copy belong to
    // the original's queues, which stay attached to the original: the copy does not track their state
    // (nor report them held), and its Reset or Destroy leaves them usable.
    __aicore__ inline TPipe(const TPipe& other)
        : buffers_(other.buffers_),
          buffer_count_(other.buffer_count_),
          used_bytes_(other.used_bytes_),
          event_ids_in_use_(other.event_ids_in_use_),
          generation_(other.generation_) {
        ForgetBufferStates();
    }

    // As the copy, replacing this pipe's bookkeeping: queues carved from it before are no longer
    // attached (a Reset, as far as they are concerned), so it may not hold any of their buffers.
    __aicore__ inline TPipe& operator=(const TPipe& other) {
        if (this == &other) return *this;
        RequireNothingHeld("TPipe::operator=");
        buffers_ = other.buffers_;
        buffer_count_ = other.buffer_count_;
        used_bytes_ = other.used_bytes_;
        event_ids_in_use_ = other.event_ids_in_use_;
        generation_ = (generation_ > other.generation_ ? generation_ : other.generation_) + 1;
        ForgetBufferStates();
        return *this;
    }

    // (Re)starts the pipe with no buffers.
    __aicore__ inline void Init() { Reset(); }

    // Carves `num` buffers of `len` bytes (rounded up to 32) for `que` from its position's memory.
    template <class Queue>
    __aicore__ inline bool InitBuffer(Queue& que, uint8_t num, uint32_t len) {
        if (que.canopy_attached_to(*this)) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("InitBuffer", que.canopy_name(),
                                                  " already has buffers from this TPipe");
        }
        canopy::kernel::ascendc::BufferRecord* first =
            Carve(Queue::canopy_position, num, len, &que, true, "InitBuffer");
        que.canopy_attach(*this, first, num, generation_);
        return true;
    }

    // Carves one buffer of `len` bytes (rounded up to 32) for `buf`.
    template <TPosition pos>
    __aicore__ inline bool InitBuffer(TBuf<pos>& buf, uint32_t len) {
        if (buf.canopy_attached_to(*this)) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("InitBuffer", "TBuf<", PositionName(pos),
                                                  "> already has a buffer from this TPipe");
        }
        canopy::kernel::ascendc::BufferRecord* record = Carve(pos, 1, len, &buf, false, "InitBuffer");
        buf.canopy_attach(*this, record, generation_);
        return true;
    }

    // A TBufPool of `len` bytes (rounded up to 32) from its position's memory, or one sharing the
    // memory of `shareBuf` (tbuf_pool.h).
    template <class Pool>
    __aicore__ inline bool InitBufPool(Pool& bufPool, uint32_t len) {
        return canopy::kernel::ascendc::PoolCarving<Pool>::from_pipe(*this, bufPool.tBufPoolImpl, len);
    }
    template <class Pool, class Shared>
    __aicore__ inline bool InitBufPool(Pool& bufPool, uint32_t len, Shared& shareBuf) {
        return canopy::kernel::ascendc::PoolCarving<Pool>::template share<Shared>(*this, bufPool.tBufPoolImpl, len,
                                                                                  shareBuf.tBufPoolImpl);
    }

    // Event ids for SetFlag/WaitFlag in TPipe-managed kernels: eight per HardEvent.
    template <HardEvent evt>
    __aicore__ inline TEventID AllocEventID() {
        const TEventID id = LowestFreeEvent(evt, "AllocEventID");
        event_ids_in_use_[static_cast<std::size_t>(evt)] |= uint8_t(1u << id);
        return id;
    }

    template <HardEvent evt>
    __aicore__ inline void ReleaseEventID(TEventID id) {
        uint8_t& in_use = event_ids_in_use_[static_cast<std::size_t>(evt)];
        if (id < 0 || id >= QUE_MAX_EVENT || (in_use & (1u << id)) == 0) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("ReleaseEventID", "event id ", int(id),
                                                  " was not allocated by AllocEventID");
        }
        in_use = uint8_t(in_use & ~(1u << id));
    }

    // An event id not held by AllocEventID, for a one-off SetFlag/WaitFlag pair.
    template <HardEvent evt>
    __aicore__ inline TEventID FetchEventID() {
        return LowestFreeEvent(evt, "FetchEventID");
    }
    __aicore__ inline TEventID FetchEventID(HardEvent evt) { return LowestFreeEvent(evt, "FetchEventID"); }

    // Drops every buffer so the memories can be carved again; queues initialised before can no longer
    // be used.
    __aicore__ inline void Reset() {
        RequireNothingHeld("TPipe::Reset");
        buffer_count_ = 0;
        used_bytes_.fill(0);
        event_ids_in_use_.fill(0);
        ++generation_;
    }

    // Ends this pipe's life early so that the kernel may create another one.
    __aicore__ inline void Destroy() {
        Reset();
        Unregister();
    }

    // Canopy: the InitBuffer epoch a queue's buffers belong to.
    uint32_t canopy_generation() const { return generation_; }

    // Canopy: the bytes of `hardware`'s memory carved so far (the advanced API's stack buffer is
    // what lies after them).
    std::size_t canopy_used_bytes(Hardware hardware) const { return used_bytes_[static_cast<std::size_t>(hardware)]; }

    // Canopy: reserves `bytes` (a multiple of 32) of `position`'s memory for a TBufPool; returns the
    // offset into that memory.
    uint32_t canopy_reserve(TPosition position, std::size_t bytes, const char* api) {
        using namespace canopy::kernel::ascendc;
        const Hardware hardware = GetPhyType(position);
        const LocalMemory memory = local_memory(hardware);
        if (memory.base == nullptr) [[unlikely]] {
            fail_misuse(api, "position ", PositionName(position), " (", HardwareName(hardware),
                        ") has no memory in this block");
        }
        std::size_t& used = used_bytes_[static_cast<std::size_t>(hardware)];
        if (used + bytes > memory.bytes) [[unlikely]] {
            fail_misuse(api, HardwareName(hardware), " capacity exceeded: a ", bytes, "-byte pool requested with ",
                        used, " bytes already carved, but the ", HardwareName(hardware), " holds ", memory.bytes,
                        " bytes");
        }
        const std::size_t offset = used;
        used += bytes;
        return static_cast<uint32_t>(offset);
    }

private:
    canopy::kernel::ascendc::BufferRecord* Carve(TPosition position, uint32_t num, uint32_t len, const void* owner,
                                                 bool queued, const char* api) {
        using namespace canopy::kernel::ascendc;
        const Hardware hardware = GetPhyType(position);
        LocalMemory memory = local_memory(hardware);
        if (memory.base == nullptr) [[unlikely]] {
            // A mix kernel's code runs on both cores, and on the NPU a buffer is only an address until an
            // instruction touches it: the AIC carves UB buffers without memory behind them (their tensors
            // have no data, and the first instruction using one fails), counted against the A2's UB.
            const bool aic = canopy::kernel::current_block().core_type == canopy::kernel::core_type_aic;
            if (hardware == Hardware::UB && aic) {
                memory.bytes = TOTAL_UB_SIZE;
            } else if (hardware == Hardware::UB) {
                fail_misuse(api, "this block has no Unified Buffer (ub_bytes is ", memory.bytes, ")");
            } else {
                fail_misuse(api, "position ", PositionName(position), " (", HardwareName(hardware),
                            ") is not modelled by Canopy");
            }
        }
        if (num == 0 || len == 0) [[unlikely]] {
            fail_misuse(api, "asked for ", num, " buffers of ", len, " bytes; both must be at least 1");
        }
        if (buffer_count_ + num > QBUF_MAX_LEN) [[unlikely]] {
            fail_misuse(api, "asked for ", num, " more buffers with ", buffer_count_,
                        " already carved; a TPipe holds at most ", QBUF_MAX_LEN, " buffers");
        }
        const std::size_t rounded = align_up(len, ONE_BLK_SIZE);
        const std::size_t needed = rounded * num;
        std::size_t& used = used_bytes_[static_cast<std::size_t>(hardware)];
        if (used + needed > memory.bytes) [[unlikely]] {
            fail_misuse(api, HardwareName(hardware), " capacity exceeded: ", num, " x ", len, " bytes (",
                        rounded, " bytes each after rounding to 32) = ", needed, " bytes requested with ", used,
                        " bytes already carved, but the ", HardwareName(hardware), " holds ", memory.bytes,
                        " bytes");
        }
        BufferRecord* first = &buffers_[buffer_count_];
        for (uint32_t i = 0; i < num; ++i) {
            std::byte* address = memory.base != nullptr ? memory.base + used : nullptr;
            buffers_[buffer_count_++] = BufferRecord{address, static_cast<uint32_t>(rounded), position,
                                                     BufferState::free, owner, queued, {}};
            used += rounded;
        }
        return first;
    }

    TEventID LowestFreeEvent(HardEvent evt, const char* api) const {
        const uint8_t in_use = event_ids_in_use_[static_cast<std::size_t>(evt)];
        for (int id = 0; id < QUE_MAX_EVENT; ++id) {
            if ((in_use & (1u << id)) == 0) return static_cast<TEventID>(id);
        }
        canopy::kernel::ascendc::fail_misuse(api, "all ", QUE_MAX_EVENT,
                                              " event ids of this HardEvent are allocated");
    }

    std::string HeldBuffers() const {
        using namespace canopy::kernel::ascendc;
        std::string held;
        uint32_t count = 0;
        for (uint32_t i = 0; i < buffer_count_; ++i) {
            const BufferRecord& record = buffers_[i];
            if (!record.queued || record.state == BufferState::free) continue;
            ++count;
            held += describe(count == 1 ? "" : "; ", "buffer ", i, " (", PositionName(record.position), ", ",
                             record.bytes, " bytes) is ", state_name(record.state));
        }
        if (count == 0) return {};
        return describe(count, " of ", buffer_count_, " buffers still held when the kernel returned: ", held);
    }

    void RequireNothingHeld(const char* api) const {
        std::string held = HeldBuffers();
        if (!held.empty()) [[unlikely]] canopy::kernel::ascendc::fail_misuse(api, held);
    }

    // A copy's records of the original's buffers: carved (they count against the capacity and the
    // 64 buffers) but free, as their queues track their state in the original.
    void ForgetBufferStates() {
        for (uint32_t i = 0; i < buffer_count_; ++i) buffers_[i].state = canopy::kernel::ascendc::BufferState::free;
    }

    void Unregister() {
        canopy::kernel::ascendc::LivePipe& live = canopy::kernel::ascendc::live_pipe();
        if (live.pipe == this) live.pipe = nullptr;
    }

    std::array<canopy::kernel::ascendc::BufferRecord, QBUF_MAX_LEN> buffers_{};
    uint32_t buffer_count_ = 0;
    std::array<std::size_t, static_cast<std::size_t>(Hardware::MAX)> used_bytes_{};
    std::array<uint8_t, static_cast<std::size_t>(HardEvent::MAX)> event_ids_in_use_{};
    uint32_t generation_ = 1;
};

}  // namespace AscendC

namespace canopy::kernel::ascendc {
inline bool PoolEpoch::carved() const {
    if (pipe == nullptr || pipe->canopy_generation() != pipe_generation) return false;
    return parent == nullptr || (parent->generation == parent_generation && parent->carved());
}
}  // namespace canopy::kernel::ascendc

namespace AscendC {

// The running block's TPipe, or null when it has none.
__aicore__ inline TPipe* GetTPipePtr() {
    canopy::kernel::ascendc::LivePipe& live = canopy::kernel::ascendc::live_pipe();
    return live.registered_by_running_block() ? live.pipe : nullptr;
}

// A queue between two positions of the same memory; `depth` is how many tensors it can hold enqueued.
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
public:
    // Tensors from this queue carry the source position (GM-sourced binds: the local one).
    static constexpr TPosition canopy_position = (src == TPosition::GM ? dst : src);

    __aicore__ inline TQueBind() = default;
    TQueBind(const TQueBind&) = delete;
    TQueBind& operator=(const TQueBind&) = delete;

    // Takes the next free buffer (round robin, as the hardware's queue does).
    template <typename T>
    __aicore__ inline LocalTensor<T> AllocTensor() {
        using namespace canopy::kernel::ascendc;
        RequireAttached("AllocTensor");
        for (uint32_t tried = 0; tried < buffer_count_; ++tried) {
            BufferRecord& record = buffers_[next_alloc_];
            next_alloc_ = static_cast<uint8_t>((next_alloc_ + 1) % buffer_count_);
            if (record.state == BufferState::free) {
                record.state = BufferState::allocated;
                canopy::kernel::pipe_acquire(record.handed_over);
                return LocalTensor<T>(reinterpret_cast<T*>(record.address), canopy::kernel::ascendc::elements_in<T>(record.bytes), record.position,
                                      &record);
            }
        }
        fail_misuse("AllocTensor", canopy_name(), " has no free buffer: all ", buffer_count_, " of its ",
                    buffers_[0].bytes, "-byte buffers are held (", CountIn(BufferState::allocated), " allocated, ",
                    CountIn(BufferState::enqueued), " enqueued, ", CountIn(BufferState::dequeued),
                    " dequeued); FreeTensor one first");
    }

    template <typename T>
    __aicore__ inline void AllocTensor(LocalTensor<T>& tensor) {
        tensor = AllocTensor<T>();
    }

    template <typename T>
    __aicore__ inline bool EnQue(const LocalTensor<T>& tensor) {
        using namespace canopy::kernel::ascendc;
        RequireAttached("EnQue");
        BufferRecord* record = RequireOwned(tensor, "EnQue");
        if (record->state != BufferState::allocated && record->state != BufferState::dequeued) [[unlikely]] {
            fail_misuse("EnQue", "the tensor's buffer is ", state_name(record->state), "; only a tensor from "
                        "AllocTensor (or one taken back with DeQue) can be enqueued");
        }
        if (ring_count_ >= uint32_t(depth)) [[unlikely]] {
            fail_misuse("EnQue", canopy_name(), " already holds ", ring_count_, " enqueued tensors, its depth is ",
                        depth, "; DeQue before enqueueing more");
        }
        ring_[(ring_head_ + ring_count_) % ring_.size()] = record;
        ++ring_count_;
        record->state = BufferState::enqueued;
        record->handed_over = canopy::kernel::pipe_release();
        return true;
    }

    template <typename T>
    __aicore__ inline LocalTensor<T> DeQue() {
        using namespace canopy::kernel::ascendc;
        RequireAttached("DeQue");
        if (ring_count_ == 0) [[unlikely]] {
            fail_misuse("DeQue", canopy_name(), " is empty (0 of depth ", depth,
                        " enqueued); EnQue a tensor before taking it out");
        }
        BufferRecord* record = ring_[ring_head_];
        ring_head_ = (ring_head_ + 1) % ring_.size();
        --ring_count_;
        record->state = BufferState::dequeued;
        canopy::kernel::pipe_acquire(record->handed_over);
        return LocalTensor<T>(reinterpret_cast<T*>(record->address), canopy::kernel::ascendc::elements_in<T>(record->bytes), record->position,
                              record);
    }

    template <typename T>
    __aicore__ inline void DeQue(LocalTensor<T>& tensor) {
        tensor = DeQue<T>();
    }

    template <typename T>
    __aicore__ inline void FreeTensor(LocalTensor<T>& tensor) {
        using namespace canopy::kernel::ascendc;
        RequireAttached("FreeTensor");
        BufferRecord* record = RequireOwned(tensor, "FreeTensor");
        if (record->state == BufferState::free) [[unlikely]] {
            fail_misuse("FreeTensor", "the tensor's ", record->bytes, "-byte buffer in ", canopy_name(),
                        " is already free (freed twice?)");
        }
        if (record->state == BufferState::enqueued) [[unlikely]] {
            fail_misuse("FreeTensor", "the tensor is still enqueued in ", canopy_name(), "; DeQue it first");
        }
        record->state = BufferState::free;
        record->handed_over = canopy::kernel::pipe_release();
    }

    __aicore__ inline bool VacantInQue() const { return ring_count_ < uint32_t(depth); }
    __aicore__ inline bool HasTensorInQue() const { return ring_count_ > 0; }
    __aicore__ inline int32_t GetTensorCountInQue() const { return static_cast<int32_t>(ring_count_); }
    __aicore__ inline bool HasIdleBuffer() const {
        return CountIn(canopy::kernel::ascendc::BufferState::free) > 0;
    }

    // How a custom TBufPool (EXTERN_IMPL_BUFPOOL) hands the queue its buffers (tbuf_pool.h).
    __aicore__ inline void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len);
    template <typename Pool>
    __aicore__ inline void InitBufHandle(Pool* bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr,
                                         uint32_t len);

    // Canopy: wiring done by TPipe::InitBuffer.
    bool canopy_attached_to(const TPipe& pipe) const {
        return pipe_ == &pipe && generation_ == pipe.canopy_generation();
    }
    // Canopy: whether the buffers can still be used (nothing they came from was Reset since).
    bool canopy_live() const {
        return pipe_ != nullptr && generation_ == pipe_->canopy_generation() &&
               (pool_ == nullptr || (pool_->generation == pool_generation_ && pool_->carved()));
    }
    void canopy_attach(TPipe& pipe, canopy::kernel::ascendc::BufferRecord* first, uint8_t count, uint32_t generation,
                       const canopy::kernel::ascendc::PoolEpoch* pool = nullptr) {
        pipe_ = &pipe;
        generation_ = generation;
        pool_ = pool;
        pool_generation_ = pool != nullptr ? pool->generation : 0;
        buffers_ = first;
        buffer_count_ = count;
        // Owned by this object (the TQueBind part of a TQue), which is what EnQue/FreeTensor compare.
        for (uint32_t i = 0; i < count; ++i) buffers_[i].owner = this;
        next_alloc_ = 0;
        ring_head_ = 0;
        ring_count_ = 0;
    }
    std::string canopy_name() const {
        using canopy::kernel::ascendc::describe;
        if constexpr (src == dst) return describe("TQue<", PositionName(src), ", depth ", depth, ">");
        else return describe("TQueBind<", PositionName(src), ", ", PositionName(dst), ", depth ", depth, ">");
    }

private:
    // Inline and cheap, since every queue operation checks it; the messages are built out of line.
    void RequireAttached(const char* api) const {
        if (pipe_ == nullptr || generation_ != pipe_->canopy_generation() || pool_ != nullptr) [[unlikely]] {
            CheckAttachment(api);
        }
    }

    [[gnu::noinline]] void CheckAttachment(const char* api) const {
        if (pipe_ == nullptr) {
            canopy::kernel::ascendc::fail_misuse(api, canopy_name(),
                                                  " has no buffers: TPipe::InitBuffer was not called for it");
        }
        if (generation_ != pipe_->canopy_generation()) {
            canopy::kernel::ascendc::fail_misuse(api, canopy_name(),
                                                  " was initialised before its TPipe was Reset or Destroyed");
        }
        if (pool_ != nullptr && (pool_->generation != pool_generation_ || !pool_->carved())) {
            canopy::kernel::ascendc::fail_misuse(api, canopy_name(), " was initialised from a TBufPool that has "
                                                  "been Reset since (it, a pool it was carved from, or its TPipe)");
        }
    }

    template <typename T>
    canopy::kernel::ascendc::BufferRecord* RequireOwned(const LocalTensor<T>& tensor, const char* api) const {
        canopy::kernel::ascendc::BufferRecord* record = tensor.buffer_record();
        if (record == nullptr || record->owner != this) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse(api, "the ", PositionName(tensor.position()), " tensor of ",
                                                  tensor.GetSize(), " elements was not allocated by ", canopy_name(),
                                                  record == nullptr ? " (it does not come from a queue)"
                                                                    : " (it belongs to another queue or TBuf)");
        }
        return record;
    }

    uint32_t CountIn(canopy::kernel::ascendc::BufferState state) const {
        uint32_t count = 0;
        for (uint32_t i = 0; i < buffer_count_; ++i) count += buffers_[i].state == state;
        return count;
    }

    TPipe* pipe_ = nullptr;
    uint32_t generation_ = 0;
    const canopy::kernel::ascendc::PoolEpoch* pool_ = nullptr;  // the TBufPool the buffers came from
    uint32_t pool_generation_ = 0;
    uint64_t pending_handles_ = 0;  // InitStartBufHandle's handles InitBufHandle has yet to fill
    canopy::kernel::ascendc::BufferRecord* buffers_ = nullptr;
    uint8_t buffer_count_ = 0;
    uint8_t next_alloc_ = 0;
    std::array<canopy::kernel::ascendc::BufferRecord*, (depth > 0 ? depth : 1)> ring_{};
    uint32_t ring_head_ = 0;
    uint32_t ring_count_ = 0;
};

// A queue whose tensors stay in one position (VECIN, VECOUT, A1, ...).
template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {
public:
    __aicore__ inline TQue() = default;
};

// A plain buffer for temporaries: Get() hands out its memory without queue bookkeeping.
template <TPosition pos = TPosition::LCM>
class TBuf {
public:
    __aicore__ inline TBuf() = default;
    TBuf(const TBuf&) = delete;
    TBuf& operator=(const TBuf&) = delete;

    template <typename T>
    __aicore__ inline LocalTensor<T> Get() {
        RequireAttached("TBuf::Get");
        return LocalTensor<T>(reinterpret_cast<T*>(record_->address), canopy::kernel::ascendc::elements_in<T>(record_->bytes), pos, record_);
    }

    template <typename T>
    __aicore__ inline LocalTensor<T> Get(uint32_t len) {
        RequireAttached("TBuf::Get");
        if (canopy::kernel::ascendc::bytes_of<T>(len) > record_->bytes) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("TBuf::Get", len, " elements (", canopy::kernel::ascendc::bytes_of<T>(len),
                                                  " bytes) exceed the ", record_->bytes, "-byte buffer");
        }
        return LocalTensor<T>(reinterpret_cast<T*>(record_->address), len, pos, record_);
    }

    // The whole buffer, as Get<T>() (a TBuf has no queue to allocate from); FreeTensor gives nothing back.
    template <typename T>
    __aicore__ inline LocalTensor<T> AllocTensor() {
        return Get<T>();
    }
    template <typename T>
    __aicore__ inline void FreeTensor(LocalTensor<T>& tensor) {
        (void)tensor;
        RequireAttached("TBuf::FreeTensor");
    }

    // `size` elements starting `bufOffset` bytes (a multiple of 32) into the buffer.
    template <typename T>
    __aicore__ inline LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset) {
        RequireAttached("TBuf::GetWithOffset");
        if (bufOffset % ONE_BLK_SIZE != 0 || uint64_t(bufOffset) + canopy::kernel::ascendc::bytes_of<T>(size) > record_->bytes)
            [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("TBuf::GetWithOffset", size, " elements (",
                                                  canopy::kernel::ascendc::bytes_of<T>(size), " bytes) at byte offset ", bufOffset,
                                                  " do not fit the ", record_->bytes,
                                                  "-byte buffer at a 32-byte aligned offset");
        }
        return LocalTensor<T>(reinterpret_cast<T*>(record_->address + bufOffset), size, pos, record_);
    }

    // How a custom TBufPool (EXTERN_IMPL_BUFPOOL) hands the TBuf its buffer (tbuf_pool.h).
    __aicore__ inline void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len);
    template <typename Pool>
    __aicore__ inline void InitBufHandle(Pool* bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr,
                                         uint32_t len);

    // Canopy: wiring done by TPipe::InitBuffer.
    bool canopy_attached_to(const TPipe& pipe) const {
        return pipe_ == &pipe && generation_ == pipe.canopy_generation();
    }
    // Canopy: whether the buffers can still be used (nothing they came from was Reset since).
    bool canopy_live() const {
        return pipe_ != nullptr && generation_ == pipe_->canopy_generation() &&
               (pool_ == nullptr || (pool_->generation == pool_generation_ && pool_->carved()));
    }
    void canopy_attach(TPipe& pipe, canopy::kernel::ascendc::BufferRecord* record, uint32_t generation,
                       const canopy::kernel::ascendc::PoolEpoch* pool = nullptr) {
        pipe_ = &pipe;
        record_ = record;
        generation_ = generation;
        pool_ = pool;
        pool_generation_ = pool != nullptr ? pool->generation : 0;
    }

private:
    // Inline and cheap, since every queue operation checks it; the messages are built out of line.
    void RequireAttached(const char* api) const {
        if (pipe_ == nullptr || generation_ != pipe_->canopy_generation() || pool_ != nullptr) [[unlikely]] {
            CheckAttachment(api);
        }
    }

    [[gnu::noinline]] void CheckAttachment(const char* api) const {
        if (pipe_ == nullptr) {
            canopy::kernel::ascendc::fail_misuse(api, "TBuf<", PositionName(pos),
                                                  "> has no buffer: TPipe::InitBuffer was not called for it");
        }
        if (generation_ != pipe_->canopy_generation()) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse(api, "TBuf<", PositionName(pos),
                                                  "> was initialised before its TPipe was Reset or Destroyed");
        }
        if (pool_ != nullptr && (pool_->generation != pool_generation_ || !pool_->carved())) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse(api, "TBuf<", PositionName(pos), "> was initialised from a TBufPool "
                                                  "that has been Reset since (it, a pool it was carved from, or its "
                                                  "TPipe)");
        }
    }

    TPipe* pipe_ = nullptr;
    canopy::kernel::ascendc::BufferRecord* record_ = nullptr;
    uint32_t generation_ = 0;
    const canopy::kernel::ascendc::PoolEpoch* pool_ = nullptr;  // the TBufPool the buffer came from
    uint32_t pool_generation_ = 0;
    bool pending_handle_ = false;  // InitStartBufHandle's handle InitBufHandle has yet to fill
};

// Static-tensor programming: hands out consecutive 32-byte aligned pieces of one memory without a
// TPipe (the cube samples use one per L1 / L0A / L0B / L0C).
template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
public:
    __aicore__ inline LocalMemAllocator() : memory_(canopy::kernel::ascendc::local_memory(hard)) {
        if (memory_.base == nullptr) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("LocalMemAllocator", HardwareName(hard),
                                                  " is not available to this block (", memory_.bytes, " bytes)");
        }
    }

    __aicore__ inline uint32_t GetCurAddr() const { return head_; }

    template <TPosition pos, class DataType, uint32_t tileSize>
    __aicore__ inline LocalTensor<DataType> Alloc() {
        return Alloc<pos, DataType>(tileSize);
    }

    template <TPosition pos, class DataType>
    __aicore__ inline LocalTensor<DataType> Alloc(uint32_t tileSize) {
        if (GetPhyType(pos) != hard) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("LocalMemAllocator::Alloc", "position ", PositionName(pos), " is in ",
                                                  HardwareName(GetPhyType(pos)), ", but this allocator hands out ",
                                                  HardwareName(hard));
        }
        const std::size_t bytes = std::size_t(tileSize) * sizeof(DataType);
        const std::size_t rounded = canopy::kernel::ascendc::align_up(bytes, ONE_BLK_SIZE);
        if (head_ + rounded > memory_.bytes) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("LocalMemAllocator::Alloc", HardwareName(hard),
                                                  " capacity exceeded: ", tileSize, " elements (", bytes,
                                                  " bytes) requested at offset ", head_, ", but the ",
                                                  HardwareName(hard), " holds ", memory_.bytes, " bytes");
        }
        LocalTensor<DataType> tensor(reinterpret_cast<DataType*>(memory_.base + head_), tileSize, pos, nullptr);
        head_ += static_cast<uint32_t>(rounded);
        return tensor;
    }

    template <class DataType, uint32_t tileSize>
    __aicore__ inline LocalTensor<DataType> Alloc() {
        return Alloc<DefaultPosition(), DataType>(tileSize);
    }

    template <class DataType>
    __aicore__ inline LocalTensor<DataType> Alloc(uint32_t tileSize) {
        return Alloc<DefaultPosition(), DataType>(tileSize);
    }

private:
    static constexpr TPosition DefaultPosition() {
        switch (hard) {
            case Hardware::L1: return TPosition::A1;
            case Hardware::L0A: return TPosition::A2;
            case Hardware::L0B: return TPosition::B2;
            case Hardware::L0C: return TPosition::CO1;
            default: return TPosition::VECCALC;
        }
    }

    canopy::kernel::ascendc::LocalMemory memory_;
    uint32_t head_ = 0;
};

}  // namespace AscendC

// Ascend C declares GetTPipePtr at global scope too; kernels call it unqualified.
using AscendC::GetTPipePtr;
