#pragma once
// ListTensorDesc / TensorDesc: a kernel's dynamic list of input tensors, passed as one GM pointer to a
// block of 64-bit words the host laid out:
//
//   word 0                  the byte offset from the block's start to its data pointers
//   per tensor, in order    one descriptor word: dim in the low 32 bits, the tensor's index (or, in
//                           the first descriptor, the tensor count, 0 when not given) in the high 32,
//                           then `dim` shape words (a list without shapes, dim 0, has one 0xffffffff
//                           word instead)
//   at the data offset      one data pointer per tensor
//
// ListTensorDesc decodes the header once and checks that its parts agree (the descriptors fill the
// space before the data pointers exactly); GetDataPtr and GetDesc read a tensor's pointer and shape.
#include <cstdint>

#include "canopy/kernel/ascendc/check.h"
#include "canopy/kernel/ascendc/global_tensor.h"
#include "canopy/kernel/ascendc/types.h"

namespace AscendC {

class ListTensorDesc;

template <class T>
class TensorDesc {
public:
    __aicore__ inline TensorDesc() {}
    __aicore__ inline ~TensorDesc() {}

    // Where GetDesc writes the tensor's shape: at least GetDim() words the kernel owns.
    __aicore__ inline void SetShapeAddr(uint64_t* shapePtr) {
        if (shapePtr == nullptr) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("TensorDesc::SetShapeAddr", "the shape address is null");
        }
        shape_ = shapePtr;
    }
    __aicore__ inline uint64_t GetDim() { return dim_; }
    __aicore__ inline uint64_t GetIndex() { return index_; }
    __aicore__ inline uint64_t GetShape(uint32_t offset) {
        if (offset >= dim_ || shape_ == nullptr) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("TensorDesc::GetShape", "dimension ", offset, " of a ", dim_,
                                                  "-dimensional tensor",
                                                  shape_ == nullptr ? " whose shape GetDesc has not filled" : "");
        }
        return shape_[offset];
    }
    __aicore__ inline __gm__ T* GetDataPtr() { return data_; }
    // The tensor as a GlobalTensor of its shape's element count.
    __aicore__ inline GlobalTensor<T> GetDataObj() {
        if (data_ == nullptr || shape_ == nullptr) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("TensorDesc::GetDataObj", "the descriptor has not been filled by "
                                                  "ListTensorDesc::GetDesc");
        }
        uint64_t elements = 1;
        for (uint32_t i = 0; i < dim_; ++i) elements *= shape_[i];
        GlobalTensor<T> tensor;
        tensor.SetGlobalBuffer(data_, elements);
        return tensor;
    }

private:
    friend class ListTensorDesc;
    uint32_t dim_ = 0;
    uint32_t index_ = 0;
    uint64_t* shape_ = nullptr;
    __gm__ T* data_ = nullptr;
};

class ListTensorDesc {
public:
    __aicore__ inline ListTensorDesc() {}
    __aicore__ inline ~ListTensorDesc() {}
    // `length` (the block's bytes) and `shapeSize` (the tensor count), when given, are checked
    // against the header.
    __aicore__ inline ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff,
                                     uint32_t shapeSize = 0xffffffff) {
        Init(data, length, shapeSize);
    }

    __aicore__ inline void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
        using canopy::kernel::ascendc::fail_misuse;
        if (data == nullptr) [[unlikely]] fail_misuse("ListTensorDesc", "the list's address is null");
        const auto* words = static_cast<const uint64_t*>(data);
        const uint64_t data_offset = words[0];
        if (data_offset < 2 * sizeof(uint64_t) || data_offset % sizeof(uint64_t) != 0) [[unlikely]] {
            fail_misuse("ListTensorDesc", "the data pointer offset ", data_offset,
                        " is not a multiple of 8 past the header and one descriptor");
        }
        descriptors_ = words + 1;
        pointers_ = words + data_offset / sizeof(uint64_t);
        dim_ = static_cast<uint32_t>(descriptors_[0] & 0xffffffffu);
        const uint32_t declared = static_cast<uint32_t>(descriptors_[0] >> 32);
        const uint64_t descriptor_words = (data_offset - sizeof(uint64_t)) / sizeof(uint64_t);
        stride_ = dim_ == 0 ? 2 : 1 + dim_;
        if (descriptor_words % stride_ != 0) [[unlikely]] {
            fail_misuse("ListTensorDesc", descriptor_words, " descriptor words do not hold whole descriptors of ",
                        stride_, " words (dim ", dim_, ")");
        }
        // Without a count in the first descriptor, the last descriptor's index names the last tensor.
        count_ = declared != 0 ? declared : static_cast<uint32_t>((pointers_[-int64_t(stride_)] >> 32) + 1);
        if (dim_ == 0) {
            if (descriptors_[1] != 0xffffffffu || data_offset != 3 * sizeof(uint64_t)) [[unlikely]] {
                fail_misuse("ListTensorDesc", "a list without shapes (dim 0) has one 0xffffffff shape word and its "
                            "data pointers at byte 24; this one has ", descriptors_[1], " and byte ", data_offset);
            }
        } else if (count_ != descriptor_words / stride_) [[unlikely]] {
            fail_misuse("ListTensorDesc", "the header names ", count_, " tensors but holds ",
                        descriptor_words / stride_, " descriptors of ", stride_, " words before the data pointers");
        }
        if (shapeSize != 0xffffffffu && length != 0xffffffffu) {
            if (shapeSize != count_ || uint64_t(length) != data_offset + uint64_t(count_) * sizeof(uint64_t))
                [[unlikely]] {
                fail_misuse("ListTensorDesc", "the list of ", count_, " tensors takes ",
                            data_offset + uint64_t(count_) * sizeof(uint64_t), " bytes, but the caller gave ",
                            shapeSize, " tensors and ", length, " bytes");
            }
        }
    }

    // The tensor's descriptor: its dim, index, data pointer, and its shape into desc's shape address.
    template <class T>
    __aicore__ inline void GetDesc(TensorDesc<T>& desc, uint32_t index) {
        RequireIndex(index, "ListTensorDesc::GetDesc");
        if (dim_ == 0) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("ListTensorDesc::GetDesc", "the list carries no shapes (dim 0)");
        }
        if (desc.shape_ == nullptr) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse("ListTensorDesc::GetDesc", "the TensorDesc has no shape address; "
                                                  "SetShapeAddr first");
        }
        desc.dim_ = dim_;
        desc.index_ = index;
        desc.data_ = reinterpret_cast<__gm__ T*>(pointers_[index]);
        const uint64_t* shape = descriptors_ + uint64_t(index) * stride_ + 1;
        for (uint32_t i = 0; i < dim_; ++i) desc.shape_[i] = shape[i];
    }

    template <class T>
    __aicore__ inline __gm__ T* GetDataPtr(uint32_t index) {
        RequireIndex(index, "ListTensorDesc::GetDataPtr");
        return reinterpret_cast<__gm__ T*>(pointers_[index]);
    }

    __aicore__ inline uint32_t GetSize() { return count_; }

private:
    void RequireIndex(uint32_t index, const char* api) const {
        if (descriptors_ == nullptr) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse(api, "the ListTensorDesc was not initialised with a list");
        }
        if (index >= count_) [[unlikely]] {
            canopy::kernel::ascendc::fail_misuse(api, "tensor ", index, " of a list of ", count_);
        }
    }

    const uint64_t* descriptors_ = nullptr;
    const uint64_t* pointers_ = nullptr;
    uint32_t dim_ = 0;
    uint32_t stride_ = 0;  // words per descriptor
    uint32_t count_ = 0;
};

}  // namespace AscendC
