#pragma once
// LocalTensor<T>: a typed window onto one of the core's local memories (UB, L1, L0A/B/C), handed out
// by a TQue, a TBuf or a LocalMemAllocator. Element access and every API that takes a LocalTensor
// are checked against its length: touching past the end raises ACL_ERROR_RT_AICORE_EXCEPTION.
#include <cstdint>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/local_memory.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/pipes.h"

namespace canopy::kernel::ascendc {
struct BufferRecord;  // the TPipe buffer a queue tensor lives in (pipe.h)
}

namespace AscendC {

template <typename T>
class LocalTensor {
public:
    using PrimType = T;

    __aicore__ inline LocalTensor() = default;

    // Static-tensor programming: `tileSize` elements at byte offset `addr` of `pos`'s memory.
    __aicore__ inline LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize) : position_(pos) {
        using namespace canopy::kernel::ascendc;
        const Hardware hardware = GetPhyType(pos);
        const LocalMemory memory = local_memory(hardware);
        const uint64_t bytes = uint64_t(tileSize) * sizeof(T);
        if (memory.base == nullptr) [[unlikely]] {
            fail_misuse("LocalTensor", "position ", PositionName(pos), " (", HardwareName(hardware),
                        ") is not a local memory Canopy models");
        }
        if (addr % ONE_BLK_SIZE != 0 || uint64_t(addr) + bytes > memory.bytes) [[unlikely]] {
            fail_misuse("LocalTensor", tileSize, " elements (", bytes, " bytes) at byte offset ", addr, " of ",
                        HardwareName(hardware), " do not fit its ", memory.bytes,
                        " bytes at a 32-byte aligned offset");
        }
        data_ = reinterpret_cast<T*>(memory.base + addr);
        size_ = tileSize;
        capacity_bytes_ = bytes;
    }

    // Canopy: `size` elements at `data` in `position`; `buffer` is the TPipe buffer it was
    // allocated from, or null when it does not come from a queue.
    LocalTensor(T* data, uint32_t size, TPosition position, canopy::kernel::ascendc::BufferRecord* buffer)
        : data_(data), size_(size), capacity_bytes_(uint64_t(size) * sizeof(T)), position_(position),
          buffer_(buffer) {}

    __aicore__ inline uint32_t GetSize() const { return size_; }
    __aicore__ inline uint32_t GetLength() const { return size_ * sizeof(T); }

    // Shrinks or regrows the tensor within the memory it was created over.
    __aicore__ inline void SetSize(uint32_t size) {
        if (uint64_t(size) * sizeof(T) > capacity_bytes_) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("LocalTensor::SetSize", "size ", size, " elements (",
                                                  uint64_t(size) * sizeof(T), " bytes) exceeds the ",
                                                  capacity_bytes_, " bytes the tensor was created over");
        }
        size_ = size;
    }

    // Scalar accesses: instructions of the scalar pipe.
    __aicore__ inline T GetValue(uint32_t index) const {
        T* element = Element(index, "LocalTensor::GetValue");
        ScalarAccess(element, false, "LocalTensor::GetValue");
        return *element;
    }

    template <typename Value>
    __aicore__ inline void SetValue(uint32_t index, Value value) const {
        T* element = Element(index, "LocalTensor::SetValue");
        ScalarAccess(element, true, "LocalTensor::SetValue");
        *element = static_cast<T>(value);
    }

    __aicore__ inline T& operator()(uint32_t index) const { return *Element(index, "LocalTensor::operator()"); }

    // A view starting `offset` elements further on.
    __aicore__ inline LocalTensor operator[](uint32_t offset) const {
        if (offset > size_) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("LocalTensor::operator[]", "offset ", offset,
                                                  " is past the end of a ", PositionName(position_),
                                                  " LocalTensor of ", size_, " elements");
        }
        LocalTensor view = *this;
        view.data_ = data_ + offset;
        view.size_ = size_ - offset;
        view.capacity_bytes_ = capacity_bytes_ - uint64_t(offset) * sizeof(T);
        return view;
    }

    // The same memory seen as elements of another type.
    template <typename U>
    __aicore__ inline LocalTensor<U> ReinterpretCast() const {
        const auto size = static_cast<uint32_t>(uint64_t(size_) * sizeof(T) / sizeof(U));
        LocalTensor<U> other(reinterpret_cast<U*>(data_), size, position_, buffer_);
        other.capacity_bytes_ = capacity_bytes_;
        return other;
    }

    __aicore__ inline T* GetPhyAddr() const { return data_; }
    __aicore__ inline T* GetPhyAddr(uint32_t offset) const { return data_ + offset; }
    __aicore__ inline int32_t GetPosition() const { return static_cast<int32_t>(position_); }

    // Canopy's accessors for the API implementation.
    TPosition position() const { return position_; }
    Hardware memory() const { return GetPhyType(position_); }
    canopy::kernel::ascendc::BufferRecord* buffer_record() const { return buffer_; }

private:
    template <typename U>
    friend class LocalTensor;

    void ScalarAccess(T* element, bool write, const char* api) const {
        const Hardware hardware = memory();
        const canopy::kernel::Operand operand{element, sizeof(T),
                                              canopy::kernel::ascendc::local_memory(hardware).base,
                                              HardwareName(hardware), write};
        canopy::kernel::pipe_instruction(canopy::kernel::Pipe::S, api, &operand, 1);
    }

    T* Element(uint32_t index, const char* api) const {
        if (index >= size_) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse(api, "index ", index, " is past the end of a ",
                                                  PositionName(position_), " LocalTensor of ", size_,
                                                  " elements");
        }
        return data_ + index;
    }

    T* data_ = nullptr;
    uint32_t size_ = 0;
    uint64_t capacity_bytes_ = 0;
    TPosition position_ = TPosition::VECCALC;
    canopy::kernel::ascendc::BufferRecord* buffer_ = nullptr;
};

}  // namespace AscendC

namespace canopy::kernel::ascendc {

// `count` elements of `tensor`, used by `api` as `role`, must be within the tensor.
template <typename T>
inline void require_elements(const AscendC::LocalTensor<T>& tensor, int64_t count, const char* api,
                             const char* role) {
    if (count < 0 || uint64_t(count) > tensor.GetSize()) [[unlikely]] {
        fail_misuse(api, "count ", count, " does not fit ", role, " (", AscendC::PositionName(tensor.position()),
                    " LocalTensor of ", tensor.GetSize(), " elements)");
    }
}

// `tensor` must live in `memory` for `api`.
template <typename T>
inline void require_memory(const AscendC::LocalTensor<T>& tensor, AscendC::Hardware memory, const char* api,
                           const char* role) {
    if (tensor.memory() != memory) [[unlikely]] {
        fail_misuse(api, role, " is a ", AscendC::PositionName(tensor.position()), " tensor (",
                    AscendC::HardwareName(tensor.memory()), "); this API needs it in ",
                    AscendC::HardwareName(memory));
    }
}

}  // namespace canopy::kernel::ascendc
