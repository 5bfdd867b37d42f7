#pragma once
// Functions bisheng provides to kernel sources without a header.
#include <cstddef>
#include <cstdint>
#include <type_traits>

// convert_from_bytes<T>(bytes): the T whose object representation is the sizeof(T) bytes at
// `bytes`, usable in constant expressions (the AOT compilation style keeps tilings as constexpr byte
// arrays and turns them into constexpr tiling structures with it).
template <typename T>
constexpr T convert_from_bytes(const uint8_t* bytes) {
    static_assert(std::is_trivially_copyable_v<T>, "convert_from_bytes: T must be trivially copyable");
    struct Representation {
        uint8_t byte[sizeof(T)];
    } representation{};
    for (std::size_t i = 0; i < sizeof(T); ++i) representation.byte[i] = bytes[i];
    return __builtin_bit_cast(T, representation);
}
