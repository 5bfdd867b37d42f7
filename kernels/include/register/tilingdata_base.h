#pragma once
// register/tilingdata_base.h: CANN's tiling-data definition macros. A host tiling function fills a
// class declared with them and copies it into the buffer the kernel receives; the kernel reads the
// same bytes through a plain struct of the same fields (kernel_tiling/kernel_tiling.h, or
// GET_TILING_DATA on a class declared here).
//
//   BEGIN_TILING_DATA_DEF(MyTiling)
//   TILING_DATA_FIELD_DEF(uint32_t, totalLength);
//   TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, tileLength);
//   TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
//   END_TILING_DATA_DEF;
//   REGISTER_TILING_DATA_CLASS(MyOp, MyTiling)
//
// Each field is a data member in declaration order with its natural alignment (the layout the
// kernel's struct has), with set_<name>() / get_<name>() accessors; the class is standard layout, so
// its bytes are the tiling. GetDataSize() is sizeof the class, SaveToBuffer copies those bytes.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>

namespace optiling {

// The common part of every tiling-data class (no data members: the fields start at offset 0).
template <class Derived>
class TilingDef {
public:
    size_t GetDataSize() const { return sizeof(Derived); }
    // Copies the tiling's bytes into `buffer` of `capacity` bytes; a buffer too small for them is
    // left untouched (CANN's behaviour: the copy is refused).
    void SaveToBuffer(void* buffer, size_t capacity) const {
        if (buffer == nullptr || capacity < sizeof(Derived)) return;
        std::memcpy(buffer, static_cast<const Derived*>(this), sizeof(Derived));
    }
    // The bytes, as CANN's TilingDef::GetData exposes them for tiling contexts.
    const uint8_t* GetData() const { return reinterpret_cast<const uint8_t*>(static_cast<const Derived*>(this)); }
    // Fills the fields from `buffer` (the inverse of SaveToBuffer).
    void LoadFromBuffer(const void* buffer, size_t size) {
        std::memcpy(static_cast<void*>(static_cast<Derived*>(this)), buffer, size < sizeof(Derived) ? size : sizeof(Derived));
    }
};

// REGISTER_TILING_DATA_CLASS: op type -> size of its tiling-data class.
class CTilingDataClassFactory {
public:
    static CTilingDataClassFactory& GetInstance() {
        static CTilingDataClassFactory factory;
        return factory;
    }
    void RegisterTilingData(const std::string& op, size_t bytes) {
        std::lock_guard<std::mutex> lock(mutex_);
        sizes_[op] = bytes;
    }
    // The size registered for `op`, or 0.
    size_t TilingDataSize(const std::string& op) const {
        std::lock_guard<std::mutex> lock(mutex_);
        const auto found = sizes_.find(op);
        return found == sizes_.end() ? 0 : found->second;
    }

private:
    mutable std::mutex mutex_;
    std::map<std::string, size_t> sizes_;
};

}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)                                       \
    class class_name : public ::optiling::TilingDef<class_name> {              \
    public:                                                                     \
        using CanopyTilingSelf = class_name;

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                  \
    data_type field_name = data_type();                                              \
    void set_##field_name(data_type value) { field_name = value; }                   \
    data_type get_##field_name() const { return field_name; }

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                     \
    arr_type field_name[arr_size] = {};                                              \
    void set_##field_name(const arr_type* values) {                                  \
        std::memcpy(field_name, values, sizeof(arr_type) * (arr_size));              \
    }                                                                                \
    arr_type* get_##field_name() { return field_name; }

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                         \
    struct_type field_name;                                                          \
    struct_type& get_##field_name() { return field_name; }

#define END_TILING_DATA_DEF }

#define CANOPY_TILING_CONCAT_INNER(a, b) a##b
#define CANOPY_TILING_CONCAT(a, b) CANOPY_TILING_CONCAT_INNER(a, b)

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                              \
    static_assert(std::is_standard_layout<class_name>::value,                                      \
                  "a tiling-data class must be standard layout to be copied to the kernel");        \
    [[maybe_unused]] static const bool CANOPY_TILING_CONCAT(canopy_tiling_registered_, op_type) =  \
        (::optiling::CTilingDataClassFactory::GetInstance().RegisterTilingData(#op_type, sizeof(class_name)), true);

// Kernel side: `tiling_data` becomes a copy of the tiling-data struct `type` from the kernel's
// tiling argument.
#define GET_TILING_DATA_WITH_STRUCT(type, tiling_data, tiling_arg)                  \
    type tiling_data;                                                               \
    std::memcpy(static_cast<void*>(&tiling_data), reinterpret_cast<const void*>(tiling_arg), sizeof(type))
