#pragma once
// LocalTensor<T>: a typed window onto one of the core's local memories (UB, L1, L0A/B/C), handed out
// by a TQue, a TBuf or a LocalMemAllocator. Element access and every API that takes a LocalTensor
// are checked against its length: touching past the end raises ACL_ERROR_RT_AICORE_EXCEPTION.
// Its address is CANN's public `address_` (a TBuffAddr, tbuff_addr.h), kept current by every
// operation that moves or resizes the tensor; SetAddr rebinds it, checked.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/local_memory.h"
#include "canopy/kernel/ascendc/shape_info.h"
#include "canopy/kernel/ascendc/tbuff_addr.h"
#include "canopy/kernel/ascendc/types.h"
#include "canopy/kernel/deferred_moves.h"
#include "canopy/kernel/pipes.h"

namespace AscendC {
struct int4b_t;  // cube_types.h
}

namespace canopy::kernel::ascendc {
struct BufferRecord;  // the TPipe buffer a queue tensor lives in (pipe.h)

// int4b_t packs two elements to a byte, the even element in the low nibble, and a LocalTensor of it
// counts elements (half bytes) as in Ascend C: its sizes, offsets and lengths convert through these.
template <typename T>
inline constexpr bool packs_nibbles = std::is_same_v<T, AscendC::int4b_t>;
template <typename T>
constexpr uint64_t bytes_of(uint64_t elements) {
    if constexpr (packs_nibbles<T>) return (elements + 1) / 2;
    return elements * sizeof(T);
}
template <typename T>
constexpr uint64_t elements_in(uint64_t bytes) {
    if constexpr (packs_nibbles<T>) return bytes * 2;
    return bytes / sizeof(T);
}

// BufferRecord, complete only where pipe.h is included: named through a template so that the
// LocalTensor members that read one are checked when they are instantiated.
template <typename T>
struct buffer_record_of {
    using type = BufferRecord;
};
}  // namespace canopy::kernel::ascendc

namespace AscendC {

template <typename T>
class LocalTensor {
public:
    using PrimType = T;

    __aicore__ inline LocalTensor() = default;

    // Static-tensor programming: `tileSize` elements at byte offset `addr` of `pos`'s memory.
    __aicore__ inline LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize) {
        using namespace canopy::kernel::ascendc;
        address_.logicPos = static_cast<uint8_t>(pos);
        const Hardware hardware = GetPhyType(pos);
        const LocalMemory memory = local_memory(hardware);
        const uint64_t bytes = bytes_of<T>(tileSize);
        if (memory.base == nullptr) [[unlikely]] {
            // A mix kernel's code runs on both cores, and on the NPU a tensor is only an address
            // until an instruction touches it: the AIC may build its UB tensors as long as it never
            // uses them (the pipe model refuses the first instruction that does).
            const bool aic = canopy::kernel::current_block().core_type == canopy::kernel::core_type_aic;
            if (hardware != Hardware::UB || !aic) {
                fail_misuse("LocalTensor", "position ", PositionName(pos), " (", HardwareName(hardware),
                            ") is not a local memory Canopy models");
            }
            Place(nullptr, addr, tileSize, bytes);
            return;
        }
        if (addr % ONE_BLK_SIZE != 0 || uint64_t(addr) + bytes > memory.bytes) [[unlikely]] {
            fail_misuse("LocalTensor", tileSize, " elements (", bytes, " bytes) at byte offset ", addr, " of ",
                        HardwareName(hardware), " do not fit its ", memory.bytes,
                        " bytes at a 32-byte aligned offset");
        }
        Place(reinterpret_cast<uint8_t*>(memory.base + addr), addr, tileSize, bytes);
    }

    // Canopy: `size` elements at `data` in `position`; `buffer` is the TPipe buffer it was
    // allocated from, or null when it does not come from a queue.
    LocalTensor(T* data, uint32_t size, TPosition position, canopy::kernel::ascendc::BufferRecord* buffer) {
        address_.logicPos = static_cast<uint8_t>(position);
        address_.bufferHandle = reinterpret_cast<TBufHandle>(buffer);
        // bufferAddr: the UB's base is the block context's (inline); the cube memories' are out of line.
        // (An AIC's UB tensor has neither: 0.)
        const Hardware hardware = GetPhyType(position);
        const std::byte* base = hardware == Hardware::UB ? canopy::kernel::current_block().ub
                                                         : canopy::kernel::ascendc::local_memory(hardware).base;
        const auto at = reinterpret_cast<uint8_t*>(data);
        Place(at, static_cast<uint32_t>(reinterpret_cast<uintptr_t>(at) - reinterpret_cast<uintptr_t>(base)), size,
              canopy::kernel::ascendc::bytes_of<T>(size));
    }

    __aicore__ inline uint32_t GetSize() const { return size_; }
    __aicore__ inline uint32_t GetLength() const {
        return static_cast<uint32_t>(canopy::kernel::ascendc::bytes_of<T>(size_));
    }

    // Shrinks or regrows the tensor within the memory it was created over.
    __aicore__ inline void SetSize(uint32_t size) {
        const uint64_t bytes = canopy::kernel::ascendc::bytes_of<T>(size);
        if (bytes > capacity_end_ - address_.bufferAddr) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("LocalTensor::SetSize", "size ", size, " elements (", bytes,
                                                  " bytes) exceeds the ", capacity_end_ - address_.bufferAddr,
                                                  " bytes the tensor was created over");
        }
        size_ = size;
        address_.dataLen = static_cast<uint32_t>(bytes);
    }

    // Rebinds the tensor to `address` (typically another tensor's address_, of any element type):
    // it then holds dataLen bytes at bufferAddr of logicPos's memory, as elements of T. The address
    // must lie in that memory, within the TPipe buffer its bufferHandle names if it names one;
    // absAddr, when set, must be bufferAddr's host address (a tensor's address_ always is).
    __aicore__ inline void SetAddr(const TBuffAddr& address) {
        using namespace canopy::kernel::ascendc;
        using Record = typename buffer_record_of<T>::type;
        const auto position = static_cast<TPosition>(address.logicPos);
        const Hardware hardware = GetPhyType(position);
        const LocalMemory memory = local_memory(hardware);
        if (hardware == Hardware::GM || hardware == Hardware::MAX) [[unlikely]] {
            fail_misuse("LocalTensor::SetAddr", "logicPos ", int(address.logicPos), " (", PositionName(position),
                        ") is not a local memory position");
        }
        const uint64_t end = uint64_t(address.bufferAddr) + address.dataLen;
        uint8_t* at = nullptr;
        if (memory.base == nullptr) {
            // An AIC's UB tensor (see the position constructor): an address no instruction may use.
            const bool aic = canopy::kernel::current_block().core_type == canopy::kernel::core_type_aic;
            if (hardware != Hardware::UB || !aic || address.absAddr != nullptr) [[unlikely]] {
                fail_misuse("LocalTensor::SetAddr", "position ", PositionName(position), " (",
                            HardwareName(hardware), ") is not a local memory Canopy models on this core");
            }
        } else {
            at = reinterpret_cast<uint8_t*>(memory.base) + address.bufferAddr;
            if (address.absAddr != nullptr && address.absAddr != at) [[unlikely]] {
                const auto host = reinterpret_cast<uintptr_t>(address.absAddr);
                const auto base = reinterpret_cast<uintptr_t>(memory.base);
                if (host < base || host - base >= memory.bytes) {
                    fail_misuse("LocalTensor::SetAddr", "absAddr is not in ", HardwareName(hardware), " (logicPos ",
                                PositionName(position), "): the address belongs to another memory or none");
                }
                fail_misuse("LocalTensor::SetAddr", "absAddr is byte ", host - base, " of ", HardwareName(hardware),
                            " but bufferAddr says byte ", address.bufferAddr, ": the two must agree");
            }
            if (end > memory.bytes) [[unlikely]] {
                fail_misuse("LocalTensor::SetAddr", address.dataLen, " bytes at byte ", address.bufferAddr, " of ",
                            HardwareName(hardware), " (logicPos ", PositionName(position), ") run past its ",
                            memory.bytes, " bytes");
            }
        }
        uint64_t capacity_end = end;
        if (address.bufferHandle != nullptr) {
            const auto* record = reinterpret_cast<const Record*>(address.bufferHandle);
            const uint64_t first = memory.base == nullptr || record->address == nullptr
                                       ? address.bufferAddr
                                       : uint64_t(record->address - memory.base);
            if (GetPhyType(record->position) != hardware || address.bufferAddr < first ||
                end > first + record->bytes) [[unlikely]] {
                fail_misuse("LocalTensor::SetAddr", address.dataLen, " bytes at byte ", address.bufferAddr, " of ",
                            HardwareName(hardware), " are not within the ", record->bytes, "-byte ",
                            PositionName(record->position), " buffer at byte ", first, " of ",
                            HardwareName(GetPhyType(record->position)), " that its bufferHandle names");
            }
            capacity_end = first + record->bytes;
        }
        address_ = address;
        address_.absAddr = at;
        size_ = static_cast<uint32_t>(elements_in<T>(address.dataLen));
        capacity_end_ = static_cast<uint32_t>(capacity_end);
    }
    __aicore__ inline TBufHandle GetBufferHandle() const { return address_.bufferHandle; }

    // Scalar accesses: instructions of the scalar pipe.
    __aicore__ inline T GetValue(uint32_t index) const {
        T* element = Element(index, "LocalTensor::GetValue");
        ScalarAccess(element, false, "LocalTensor::GetValue");
        if constexpr (canopy::kernel::ascendc::packs_nibbles<T>) {
            const auto byte = *reinterpret_cast<const uint8_t*>(element);
            return T(int32_t(index % 2 == 0 ? byte & 0xF : byte >> 4));
        } else {
            return *element;
        }
    }

    template <typename Value>
    __aicore__ inline void SetValue(uint32_t index, Value value) const {
        T* element = Element(index, "LocalTensor::SetValue");
        ScalarAccess(element, true, "LocalTensor::SetValue");
        if constexpr (canopy::kernel::ascendc::packs_nibbles<T>) {
            auto& byte = *reinterpret_cast<uint8_t*>(element);
            const auto bits = uint8_t(int32_t(value) & 0xF);
            byte = index % 2 == 0 ? uint8_t((byte & 0xF0) | bits) : uint8_t((byte & 0x0F) | (bits << 4));
        } else {
            *element = static_cast<T>(value);
        }
    }

    __aicore__ inline T& operator()(uint32_t index) const {
        static_assert(!canopy::kernel::ascendc::packs_nibbles<T>,
                      "an int4b_t element is half a byte: use GetValue / SetValue");
        LandDeferredMoves();  // the reference escapes
        T* element = Element(index, "LocalTensor::operator()");
        if (address_.absAddr == nullptr) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("LocalTensor::operator()", "the tensor is in ", HardwareName(memory()),
                                                  ", which this core does not have");
        }
        return *element;
    }

    // A view starting `offset` elements further on.
    __aicore__ inline LocalTensor operator[](uint32_t offset) const {
        if (offset > size_) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("LocalTensor::operator[]", "offset ", offset,
                                                  " is past the end of a ", PositionName(position()),
                                                  " LocalTensor of ", size_, " elements");
        }
        LocalTensor view = *this;
        const auto skipped = static_cast<uint32_t>(canopy::kernel::ascendc::bytes_of<T>(offset));
        view.address_.absAddr = reinterpret_cast<uint8_t*>(Advance(offset, "LocalTensor::operator[]"));
        view.address_.bufferAddr = address_.bufferAddr + skipped;
        view.address_.dataLen = address_.dataLen - skipped;
        view.size_ = size_ - offset;
        return view;
    }

    // The same memory seen as elements of another type.
    template <typename U>
    __aicore__ inline LocalTensor<U> ReinterpretCast() const {
        using namespace canopy::kernel::ascendc;
        LocalTensor<U> other;
        other.address_ = address_;
        other.size_ = static_cast<uint32_t>(elements_in<U>(bytes_of<T>(size_)));
        other.address_.dataLen = static_cast<uint32_t>(bytes_of<T>(size_));
        other.capacity_end_ = capacity_end_;
        return other;
    }

    // The address as the NPU's LocalTensor gives it (kernel_tensor_impl.h): an integer, which kernels
    // add byte offsets to (address lists of TransDataTo5HD) or cast to a __ubuf__ pointer; here it is
    // the modelled memory's CPU address. It escapes the pipe model: every move MTE2 has not landed
    // lands first.
    __aicore__ inline uint64_t GetPhyAddr() const {
        LandDeferredMoves();
        return reinterpret_cast<uintptr_t>(data());
    }
    __aicore__ inline uint64_t GetPhyAddr(uint32_t offset) const {
        LandDeferredMoves();
        return reinterpret_cast<uintptr_t>(Advance(offset, "LocalTensor::GetPhyAddr"));
    }
    __aicore__ inline int32_t GetPosition() const { return address_.logicPos; }

    // The shape the tensor carries for the APIs that read it (shape_info.h).
    __aicore__ inline void SetShapeInfo(const ShapeInfo& shapeInfo) { shape_info_ = shapeInfo; }
    __aicore__ inline ShapeInfo GetShapeInfo() const { return shape_info_; }

    // Canopy's accessors for the API implementation. address() is GetPhyAddr for the APIs that
    // report their operands to the pipe model before touching them (which lands what they need);
    // landed_address() is GetPhyAddr as a pointer, for those that do not.
    T* address() const { return data(); }
    T* landed_address() const { return reinterpret_cast<T*>(GetPhyAddr()); }
    TPosition position() const { return static_cast<TPosition>(address_.logicPos); }
    Hardware memory() const { return GetPhyType(position()); }
    canopy::kernel::ascendc::BufferRecord* buffer_record() const {
        return reinterpret_cast<canopy::kernel::ascendc::BufferRecord*>(address_.bufferHandle);
    }

    // Where the tensor lives, as CANN's LocalTensor carries it (tbuff_addr.h): public as in CANN.
    TBuffAddr address_{0, 0, nullptr, static_cast<uint8_t>(TPosition::VECCALC), nullptr};

private:
    template <typename U>
    friend class LocalTensor;

    static void LandDeferredMoves() {
        if (canopy::kernel::deferred_move_count != 0) canopy::kernel::land_all_deferred_moves();
    }

    void ScalarAccess(T* element, bool write, const char* api) const {
        const Hardware hardware = memory();
        const canopy::kernel::Operand operand{element, sizeof(T),
                                              canopy::kernel::ascendc::local_memory(hardware).base,
                                              HardwareName(hardware), write};
        canopy::kernel::pipe_instruction(canopy::kernel::Pipe::S, api, &operand, 1);
    }

    // The byte holding element `index` (for int4b_t, the element is one of its nibbles).
    T* Element(uint32_t index, const char* api) const {
        if (index >= size_) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse(api, "index ", index, " is past the end of a ",
                                                  PositionName(position()), " LocalTensor of ", size_,
                                                  " elements");
        }
        if constexpr (canopy::kernel::ascendc::packs_nibbles<T>) return data() + index / 2;
        return data() + index;
    }

    // The address `offset` elements on; an int4b_t address must fall on a byte, as on the NPU.
    T* Advance(uint32_t offset, const char* api) const {
        if constexpr (canopy::kernel::ascendc::packs_nibbles<T>) {
            if (offset % 2 != 0) [[unlikely]] {
                canopy::kernel::ascendc::fail_misuse(api, "offset ", offset,
                                                      " of an int4b_t tensor is odd: it must start on a byte");
            }
            return data() + offset / 2;
        }
        return data() + offset;
    }

    T* data() const { return reinterpret_cast<T*>(address_.absAddr); }

    // The tensor's whole state from a placement: `elements` (`bytes`) at byte `offset` of its memory.
    void Place(uint8_t* at, uint32_t offset, uint32_t elements, uint64_t bytes) {
        address_.absAddr = at;
        address_.bufferAddr = offset;
        address_.dataLen = static_cast<uint32_t>(bytes);
        size_ = elements;
        capacity_end_ = static_cast<uint32_t>(offset + bytes);
    }

    // address_ is the tensor's start, position and buffer; size_ its length in elements (its bytes
    // are address_.dataLen); capacity_end_ the byte of its memory that SetSize may grow it up to.
    uint32_t size_ = 0;
    uint32_t capacity_end_ = 0;
    ShapeInfo shape_info_{};
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
