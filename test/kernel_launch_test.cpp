// Kernel launch: every launch form (ACLRT_LAUNCH_KERNEL, <<<>>> through canopy_add_kernels, the
// handle API with packed blobs and argument lists, kernel libraries), block coverage, numBlocks
// bounds, concurrent launches, faults and their messages, failure modes, handle validation, the
// Unified Buffer and cooperative (SyncAll) launches.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "acl/acl.h"
#include "launch_kernels.h"
#include "support.h"

namespace {

using canopy_test::DeviceArray;
using canopy_test::recent_error;

// aclInit + aclrtSetDevice(0) for one test case.
struct Runtime {
    Runtime() {
        REQUIRE(aclInit(nullptr) == ACL_SUCCESS);
        REQUIRE(aclrtSetDevice(0) == ACL_SUCCESS);
    }
    ~Runtime() {
        aclrtResetDevice(0);
        aclFinalize();
    }
};

struct Stream {
    aclrtStream handle = nullptr;
    Stream() { REQUIRE_ACL(aclrtCreateStream(&handle)); }
    ~Stream() { aclrtDestroyStream(handle); }
    aclError synchronize() const { return aclrtSynchronizeStream(handle); }
};

// Every block of a launch of `blocks` ran exactly once and saw the right block count.
void check_each_block_once(const DeviceArray<BlockRecord>& records, uint32_t blocks) {
    const std::vector<BlockRecord> seen = records.read();
    std::size_t ran_once = 0, wrong = 0, extra = 0;
    for (uint32_t i = 0; i < blocks; ++i) {
        ran_once += seen[i].hits == 1;
        wrong += seen[i].wrong_count;
    }
    for (std::size_t i = blocks; i < seen.size(); ++i) extra += seen[i].hits;
    CHECK(ran_once == blocks);
    CHECK(wrong == 0);
    CHECK(extra == 0);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

void* garbage_handles[] = {reinterpret_cast<void*>(0x1234), reinterpret_cast<void*>(~std::uintptr_t{0}),
                           reinterpret_cast<void*>(std::uintptr_t{4} << 60 | 7),  // function tag, unused slot
                           reinterpret_cast<void*>(std::uintptr_t{4} << 60 | std::uintptr_t{9} << 32 | 1)};

}  // namespace

TEST_CASE("ACLRT_LAUNCH_KERNEL runs every block exactly once") {
    Runtime runtime;
    Stream stream;
    DeviceArray<BlockRecord> records(65536);
    for (uint32_t blocks : {1u, 7u, 1024u, 65535u}) {
        CAPTURE(blocks);
        records.clear();
        // Device memory is void*: it passes for the kernel's GM_ADDR parameter, as in CANN.
        void* device = records.get();
        REQUIRE_ACL(ACLRT_LAUNCH_KERNEL(count_blocks)(blocks, stream.handle, device, blocks));
        REQUIRE_ACL(stream.synchronize());
        check_each_block_once(records, blocks);
    }
}

TEST_CASE("<<<>>> launches compiled by canopy_add_kernels run every block exactly once") {
    Runtime runtime;
    Stream stream;
    DeviceArray<BlockRecord> records(65536);
    for (uint32_t blocks : {1u, 7u, 1024u, 65535u}) {
        CAPTURE(blocks);
        records.clear();
        REQUIRE_ACL(launch_count_blocks(blocks, stream.handle, records.get()));
        REQUIRE_ACL(stream.synchronize());
        check_each_block_once(records, blocks);
    }
    // The default stream (NULL) and an explicit dynamic UB size.
    records.clear();
    REQUIRE_ACL(launch_count_blocks_with_ub(64, 4096, nullptr, records.get()));
    REQUIRE_ACL(aclrtSynchronizeStream(nullptr));
    check_each_block_once(records, 64);
}

TEST_CASE("numBlocks outside [1, 65535] is rejected at launch") {
    Runtime runtime;
    Stream stream;
    DeviceArray<BlockRecord> records(8);
    for (uint32_t blocks : {0u, 65536u, 0xffffffffu}) {
        CAPTURE(blocks);
        CHECK(ACLRT_LAUNCH_KERNEL(count_blocks)(blocks, stream.handle, records.get(), blocks) == ACL_ERROR_RT_PARAM_INVALID);
        CHECK(contains(recent_error(), "numBlocks " + std::to_string(blocks)));
        CHECK(contains(recent_error(), "count_blocks"));
        CHECK(aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_ERROR_RT_PARAM_INVALID);
        CHECK(launch_count_blocks(blocks, stream.handle, records.get()) == ACL_ERROR_RT_PARAM_INVALID);
    }
    aclrtFuncHandle function = nullptr;
    REQUIRE_ACL(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&empty_kernel), &function));
    const uint32_t no_arguments = 0;
    CHECK(aclrtLaunchKernel(function, 0, &no_arguments, 0, stream.handle) == ACL_ERROR_RT_PARAM_INVALID);
    CHECK(aclrtLaunchKernel(function, 65536, &no_arguments, 0, stream.handle) == ACL_ERROR_RT_PARAM_INVALID);
    aclrtArgsHandle args = nullptr;
    REQUIRE_ACL(aclrtKernelArgsInit(function, &args));
    REQUIRE_ACL(aclrtKernelArgsFinalize(args));
    // As in CANN, aclrtLaunchKernelWithConfig rejects 0 in its acl layer.
    CHECK(aclrtLaunchKernelWithConfig(function, 0, stream.handle, nullptr, args, nullptr) == ACL_ERROR_INVALID_PARAM);
    CHECK(aclrtLaunchKernelWithConfig(function, 65536, stream.handle, nullptr, args, nullptr) == ACL_ERROR_RT_PARAM_INVALID);
    // Nothing was enqueued.
    REQUIRE_ACL(stream.synchronize());
    const auto seen = records.read();
    CHECK(std::all_of(seen.begin(), seen.end(), [](const BlockRecord& r) { return r.hits == 0; }));
}

TEST_CASE("each block has a 64-byte aligned UB of the configured size plus dynUBufSize, reused per worker") {
    Runtime runtime;
    Stream stream;
    constexpr uint32_t blocks = 256;
    UbRecord* records = nullptr;
    REQUIRE_ACL(aclrtMalloc(reinterpret_cast<void**>(&records), blocks * sizeof(UbRecord), ACL_MEM_MALLOC_HUGE_FIRST));
    for (uint32_t dyn : {0u, 8192u}) {
        CAPTURE(dyn);
        REQUIRE_ACL(launch_record_ub(blocks, dyn, stream.handle, records));
        REQUIRE_ACL(stream.synchronize());
        std::vector<UbRecord> seen(blocks);
        REQUIRE_ACL(aclrtMemcpy(seen.data(), blocks * sizeof(UbRecord), records, blocks * sizeof(UbRecord), ACL_MEMCPY_DEVICE_TO_HOST));
        std::vector<uint64_t> addresses;
        for (const UbRecord& record : seen) {
            CHECK(record.address % 64 == 0);
            CHECK(record.bytes == 192 * 1024 + dyn);
            addresses.push_back(record.address);
        }
        std::sort(addresses.begin(), addresses.end());
        addresses.erase(std::unique(addresses.begin(), addresses.end()), addresses.end());
        // One arena per worker thread, not one per block.
        CHECK(addresses.size() <= std::thread::hardware_concurrency() + 2);
    }
    aclrtFree(records);
}

TEST_CASE("launches on several streams from several threads run concurrently and correctly") {
    Runtime runtime;
    aclrtContext context = nullptr;
    REQUIRE_ACL(aclrtGetCurrentContext(&context));
    constexpr int streams = 4, launches = 25;
    constexpr uint32_t blocks = 96;
    std::vector<std::vector<BlockRecord*>> arrays(streams);
    for (auto& per_stream : arrays) {
        for (int i = 0; i < launches; ++i) {
            BlockRecord* records = nullptr;
            REQUIRE_ACL(aclrtMalloc(reinterpret_cast<void**>(&records), blocks * sizeof(BlockRecord), ACL_MEM_MALLOC_HUGE_FIRST));
            REQUIRE_ACL(aclrtMemset(records, blocks * sizeof(BlockRecord), 0, blocks * sizeof(BlockRecord)));
            per_stream.push_back(records);
        }
    }
    std::vector<aclError> results(streams, ACL_SUCCESS);
    std::vector<std::thread> threads;
    for (int s = 0; s < streams; ++s) {
        threads.emplace_back([&, s] {
            aclrtSetCurrentContext(context);
            aclrtStream stream = nullptr;
            aclError rc = aclrtCreateStream(&stream);
            for (int i = 0; rc == ACL_SUCCESS && i < launches; ++i) {
                rc = (i % 2) ? static_cast<aclError>(launch_count_blocks(blocks, stream, arrays[s][i]))
                             : static_cast<aclError>(ACLRT_LAUNCH_KERNEL(count_blocks)(blocks, stream, arrays[s][i], blocks));
            }
            if (rc == ACL_SUCCESS) rc = aclrtSynchronizeStream(stream);
            aclrtDestroyStream(stream);
            results[s] = rc;
        });
    }
    for (auto& thread : threads) thread.join();
    for (int s = 0; s < streams; ++s) {
        CHECK(results[s] == ACL_SUCCESS);
        for (BlockRecord* records : arrays[s]) {
            std::vector<BlockRecord> seen(blocks);
            REQUIRE_ACL(aclrtMemcpy(seen.data(), sizeof(BlockRecord) * blocks, records, sizeof(BlockRecord) * blocks,
                                   ACL_MEMCPY_DEVICE_TO_HOST));
            CHECK(std::all_of(seen.begin(), seen.end(), [](const BlockRecord& r) { return r.hits == 1 && r.wrong_count == 0; }));
            aclrtFree(records);
        }
    }
}

TEST_CASE("a faulting block fails only its stream, with the code and a message naming kernel, block and API") {
    Runtime runtime;
    Stream failing, healthy;
    DeviceArray<BlockRecord> records(512);
    REQUIRE_ACL(launch_faulting(8, failing.handle, 3));
    REQUIRE_ACL(launch_count_blocks(512, healthy.handle, records.get()));
    CHECK(healthy.synchronize() == ACL_SUCCESS);
    check_each_block_once(records, 512);

    CHECK(failing.synchronize() == ACL_ERROR_RT_AICORE_EXCEPTION);
    const std::string message = recent_error();
    CHECK(contains(message, "kernel faulting_kernel block 3/8"));
    CHECK(contains(message, "DataCopy: count 7 of float (28 bytes) is not a multiple of 32 bytes"));
    CHECK(contains(message, "aclrtSynchronizeStream"));
    // The failure was reported once; the stream (continue-on-failure) runs later work.
    records.clear();
    REQUIRE_ACL(launch_count_blocks(16, failing.handle, records.get()));
    CHECK(failing.synchronize() == ACL_SUCCESS);
    check_each_block_once(records, 16);

    SUBCASE("a deferred fault left when the block returns") {
        REQUIRE_ACL(ACLRT_LAUNCH_KERNEL(deferring_kernel)(4, failing.handle, 2u));
        CHECK(failing.synchronize() == ACL_ERROR_RT_AICORE_EXCEPTION);
        CHECK(contains(recent_error(), "kernel deferring_kernel block 2/4: TPipe: 2 buffers still held at kernel end"));
        // Cleared for the next launch: the same kernel without a failing block succeeds.
        REQUIRE_ACL(ACLRT_LAUNCH_KERNEL(deferring_kernel)(4, failing.handle, 99u));
        CHECK(failing.synchronize() == ACL_SUCCESS);
    }
    SUBCASE("an exception thrown by the kernel") {
        REQUIRE_ACL(ACLRT_LAUNCH_KERNEL(throwing_kernel)(1024, failing.handle, 1000u));
        CHECK(failing.synchronize() == ACL_ERROR_RT_AICORE_EXCEPTION);
        CHECK(contains(recent_error(), "kernel throwing_kernel block 1000/1024: the kernel threw: vector index out of range"));
    }
    SUBCASE("the stream reports its first failure") {
        REQUIRE_ACL(ACLRT_LAUNCH_KERNEL(faulting_kernel)(1, failing.handle, 0u));
        REQUIRE_ACL(launch_faulting(65535, failing.handle, 65534));
        CHECK(failing.synchronize() == ACL_ERROR_RT_AICORE_EXCEPTION);
        CHECK(contains(recent_error(), "kernel faulting_kernel block 0/1"));
    }
}

TEST_CASE("ACL_STOP_ON_FAILURE: after a faulting launch the stream's later launches do not run") {
    Runtime runtime;
    Stream stream;
    REQUIRE_ACL(aclrtSetStreamFailureMode(stream.handle, ACL_STOP_ON_FAILURE));
    DeviceArray<BlockRecord> records(64);
    REQUIRE_ACL(launch_faulting(4, stream.handle, 0));
    REQUIRE_ACL(launch_count_blocks(64, stream.handle, records.get()));
    CHECK(stream.synchronize() == ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK(contains(recent_error(), "kernel faulting_kernel block 0/4"));
    const auto seen = records.read();
    CHECK(std::all_of(seen.begin(), seen.end(), [](const BlockRecord& r) { return r.hits == 0; }));
}

TEST_CASE("aclrtGetFuncBySymbol + aclrtLaunchKernel unpack a packed argument blob") {
    Runtime runtime;
    Stream stream;
    constexpr uint32_t n = 1000;
    DeviceArray<float> x(n), out(n);
    std::vector<float> input(n);
    for (uint32_t i = 0; i < n; ++i) input[i] = static_cast<float>(i);
    REQUIRE_ACL(aclrtMemcpy(x.get(), x.bytes(), input.data(), x.bytes(), ACL_MEMCPY_HOST_TO_DEVICE));

    aclrtFuncHandle function = nullptr, again = nullptr;
    REQUIRE_ACL(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&scaled_copy), &function));
    REQUIRE_ACL(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&scaled_copy), &again));
    CHECK(function == again);

    // scaled_copy(GM_ADDR x, GM_ADDR out, uint32_t n, float scale, int16_t sign, uint64_t offset):
    // CANN's wrapper struct puts each at its alignment rounded up to 4: 0, 8, 16, 20, 24, 32; 40 bytes.
    struct Packed {
        void* x;
        void* out;
        uint32_t n;
        float scale;
        alignas(4) int16_t sign;
        uint64_t offset;
    } packed{x.get(), out.get(), n, 2.0f, -1, 3};
    static_assert(sizeof(Packed) == 40);
    auto expect = [&](float scale, int sign, float offset) {
        const std::vector<float> result = out.read();
        std::size_t wrong = 0;
        for (uint32_t i = 0; i < n; ++i) wrong += result[i] != (scale * input[i] + offset) * static_cast<float>(sign);
        CHECK(wrong == 0);
    };

    SUBCASE("host blob, copied at the call") {
        REQUIRE_ACL(aclrtLaunchKernel(function, 7, &packed, sizeof(Packed), stream.handle));
        packed.scale = 100.0f;  // the launch has its own copy
        REQUIRE_ACL(stream.synchronize());
        expect(2.0f, -1, 3.0f);
    }
    SUBCASE("device blob, read when the launch runs (after the copy enqueued before it)") {
        void* device_args = nullptr;
        REQUIRE_ACL(aclrtMalloc(&device_args, sizeof(Packed), ACL_MEM_MALLOC_HUGE_FIRST));
        void* pinned = nullptr;
        REQUIRE_ACL(aclrtMallocHost(&pinned, sizeof(Packed)));
        packed.sign = 1;
        std::memcpy(pinned, &packed, sizeof(Packed));
        REQUIRE_ACL(aclrtMemcpyAsync(device_args, sizeof(Packed), pinned, sizeof(Packed), ACL_MEMCPY_HOST_TO_DEVICE, stream.handle));
        REQUIRE_ACL(aclrtLaunchKernel(function, 3, device_args, sizeof(Packed), stream.handle));
        REQUIRE_ACL(stream.synchronize());
        expect(2.0f, 1, 3.0f);
        aclrtFree(device_args);
        aclrtFreeHost(pinned);
    }
    SUBCASE("a wrong argsSize is an error naming the expected layout") {
        CHECK(aclrtLaunchKernel(function, 1, &packed, 24, stream.handle) == ACL_ERROR_RT_PARAM_INVALID);
        CHECK(contains(recent_error(), "argsSize 24 does not match kernel scaled_copy("));
        CHECK(contains(recent_error(), "take 40 bytes"));
        CHECK(aclrtLaunchKernel(function, 1, &packed, 48, stream.handle) == ACL_ERROR_RT_PARAM_INVALID);
        CHECK(aclrtLaunchKernel(function, 1, nullptr, 40, stream.handle) == ACL_ERROR_INVALID_PARAM);
        REQUIRE_ACL(stream.synchronize());
    }
}

TEST_CASE("aclrtKernelArgsInit/Append/Finalize + aclrtLaunchKernelWithConfig") {
    Runtime runtime;
    Stream stream;
    constexpr uint32_t n = 300;
    DeviceArray<float> x(n), out(n);
    std::vector<float> input(n, 1.5f);
    REQUIRE_ACL(aclrtMemcpy(x.get(), x.bytes(), input.data(), x.bytes(), ACL_MEMCPY_HOST_TO_DEVICE));
    aclrtFuncHandle function = nullptr;
    REQUIRE_ACL(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&scaled_copy), &function));
    aclrtArgsHandle args = nullptr;
    REQUIRE_ACL(aclrtKernelArgsInit(function, &args));
    aclrtParamHandle param = nullptr;

    SUBCASE("one parameter per append") {
        void* x_pointer = x.get();
        void* out_pointer = out.get();
        uint32_t count = n;
        float scale = 4.0f;
        int16_t sign = -1;
        uint64_t offset = 1;
        REQUIRE_ACL(aclrtKernelArgsAppend(args, &x_pointer, sizeof(x_pointer), &param));
        CHECK(param != nullptr);
        REQUIRE_ACL(aclrtKernelArgsAppend(args, &out_pointer, sizeof(out_pointer), &param));
        REQUIRE_ACL(aclrtKernelArgsAppend(args, &count, sizeof(count), &param));
        REQUIRE_ACL(aclrtKernelArgsAppend(args, &scale, sizeof(scale), &param));
        REQUIRE_ACL(aclrtKernelArgsAppend(args, &sign, sizeof(sign), &param));
        REQUIRE_ACL(aclrtKernelArgsAppend(args, &offset, sizeof(offset), &param));
        REQUIRE_ACL(aclrtKernelArgsFinalize(args));
        // Appending after Finalize is not supported, as in CANN.
        CHECK(aclrtKernelArgsAppend(args, &offset, sizeof(offset), &param) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        // The dynamic UB size attribute, among attributes that mean nothing on a CPU.
        aclrtLaunchKernelAttr attrs[2];
        attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
        attrs[0].value.timeout = 100;
        attrs[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE;
        attrs[1].value.dynUBufSize = 1024;
        aclrtLaunchKernelCfg cfg{attrs, 2};
        REQUIRE_ACL(aclrtLaunchKernelWithConfig(function, 5, stream.handle, &cfg, args, nullptr));
        REQUIRE_ACL(stream.synchronize());
        const auto result = out.read();
        CHECK(std::all_of(result.begin(), result.end(), [](float v) { return v == -(4.0f * 1.5f + 1.0f); }));
        // The list can be launched again, and without a configuration.
        out.clear();
        REQUIRE_ACL(aclrtLaunchKernelWithConfig(function, 2, stream.handle, nullptr, args, nullptr));
        REQUIRE_ACL(stream.synchronize());
        CHECK(out.read()[n - 1] == -(4.0f * 1.5f + 1.0f));
    }
    SUBCASE("all parameters in one append (a packed struct)") {
        struct {
            void* x;
            void* out;
            uint32_t n;
            float scale;
            int32_t sign;
            uint64_t offset;
        } all{x.get(), out.get(), n, 0.5f, 1, 10};
        REQUIRE_ACL(aclrtKernelArgsAppend(args, &all, sizeof(all), &param));
        REQUIRE_ACL(aclrtKernelArgsFinalize(args));
        REQUIRE_ACL(aclrtLaunchKernelWithConfig(function, 3, stream.handle, nullptr, args, nullptr));
        REQUIRE_ACL(stream.synchronize());
        const auto result = out.read();
        CHECK(std::all_of(result.begin(), result.end(), [](float v) { return v == 0.5f * 1.5f + 10.0f; }));
    }
    SUBCASE("appended sizes that match neither form are refused at Finalize") {
        uint32_t small = 1;
        REQUIRE_ACL(aclrtKernelArgsAppend(args, &small, sizeof(small), &param));
        CHECK(aclrtKernelArgsFinalize(args) == ACL_ERROR_INVALID_PARAM);
        CHECK(contains(recent_error(), "do not match kernel scaled_copy("));
        CHECK(aclrtLaunchKernelWithConfig(function, 1, stream.handle, nullptr, args, nullptr) == ACL_ERROR_INVALID_PARAM);
        CHECK(contains(recent_error(), "not finalized"));
    }
    SUBCASE("argument errors") {
        uint64_t value = 0;
        CHECK(aclrtKernelArgsAppend(args, nullptr, 8, &param) == ACL_ERROR_INVALID_PARAM);
        CHECK(aclrtKernelArgsAppend(args, &value, 0, &param) == ACL_ERROR_INVALID_PARAM);
        CHECK(aclrtKernelArgsAppend(args, &value, 8, nullptr) == ACL_ERROR_INVALID_PARAM);
        for (int i = 0; i < 128; ++i) REQUIRE_ACL(aclrtKernelArgsAppend(args, &value, 8, &param));
        CHECK(aclrtKernelArgsAppend(args, &value, 8, &param) == ACL_ERROR_RT_PARAM_INVALID);
        CHECK(aclrtLaunchKernelWithConfig(function, 1, stream.handle, nullptr, nullptr, nullptr) == ACL_ERROR_INVALID_PARAM);
        int reserved = 0;
        CHECK(aclrtLaunchKernelWithConfig(function, 1, stream.handle, nullptr, args, &reserved) == ACL_ERROR_INVALID_PARAM);
        aclrtLaunchKernelAttr unknown{};
        const int unknown_id = 77;  // as a C caller would store it; no such enumerator
        std::memcpy(&unknown.id, &unknown_id, sizeof unknown_id);
        aclrtLaunchKernelCfg cfg{&unknown, 1};
        CHECK(aclrtLaunchKernelWithConfig(function, 1, stream.handle, &cfg, args, nullptr) == ACL_ERROR_INVALID_PARAM);
    }
    SUBCASE("a list belongs to its function and to its thread's latest aclrtKernelArgsInit") {
        aclrtFuncHandle other = nullptr;
        REQUIRE_ACL(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&empty_kernel), &other));
        CHECK(aclrtKernelArgsFinalize(args) == ACL_ERROR_INVALID_PARAM);  // nothing appended for six parameters
        aclrtArgsHandle other_args = nullptr;
        REQUIRE_ACL(aclrtKernelArgsInit(other, &other_args));
        // The thread's previous list is gone, as CANN reuses one list per thread.
        CHECK(aclrtKernelArgsFinalize(args) == ACL_ERROR_RT_INVALID_HANDLE);
        REQUIRE_ACL(aclrtKernelArgsFinalize(other_args));
        CHECK(aclrtLaunchKernelWithConfig(function, 1, stream.handle, nullptr, other_args, nullptr) == ACL_ERROR_INVALID_PARAM);
        CHECK(contains(recent_error(), "was initialized for kernel empty_kernel"));
        REQUIRE_ACL(aclrtLaunchKernelWithConfig(other, 1, stream.handle, nullptr, other_args, nullptr));
        REQUIRE_ACL(stream.synchronize());
    }
}

TEST_CASE("a by-value struct parameter passes by value or, as CANN's wrapper takes it, by pointer") {
    Runtime runtime;
    Stream stream;
    DeviceArray<float> out(64);
    Tiling tiling{64, 16, 0.25f};
    REQUIRE_ACL(ACLRT_LAUNCH_KERNEL(tiled_fill)(4, stream.handle, out.get(), tiling));
    REQUIRE_ACL(stream.synchronize());
    CHECK(out.read()[63] == 0.25f * 63);
    out.clear();
    tiling.scale = 2.0f;
    REQUIRE_ACL(ACLRT_LAUNCH_KERNEL(tiled_fill)(4, stream.handle, out.get(), &tiling));
    tiling.scale = 7.0f;  // captured at the call
    REQUIRE_ACL(stream.synchronize());
    CHECK(out.read()[10] == 20.0f);
}

TEST_CASE("kernel libraries: aclrtBinaryLoadFromFile, aclrtBinaryGetFunction, aclrtBinaryUnLoad") {
    Runtime runtime;
    Stream stream;
    aclrtBinHandle binary = nullptr;
    REQUIRE_ACL(aclrtBinaryLoadFromFile(CANOPY_TEST_KERNEL_LIBRARY, nullptr, &binary));
    aclrtFuncHandle fill = nullptr, fill_again = nullptr;
    REQUIRE_ACL(aclrtBinaryGetFunction(binary, "binary_fill", &fill));
    REQUIRE_ACL(aclrtBinaryGetFunction(binary, "binary_fill", &fill_again));
    CHECK(fill == fill_again);

    DeviceArray<uint32_t> out(33);
    struct {
        uint32_t* out;
        uint32_t base;
    } packed{out.get(), 100};
    REQUIRE_ACL(aclrtLaunchKernel(fill, 33, &packed, 12, stream.handle));
    REQUIRE_ACL(stream.synchronize());
    const auto values = out.read();
    for (uint32_t i = 0; i < 33; ++i) CHECK(values[i] == 100 + i);

    // The load options CANN defines are accepted; unknown ones are not.
    aclrtBinaryLoadOption option;
    option.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
    option.value.magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
    aclrtBinaryLoadOptions options{&option, 1};
    aclrtBinHandle second = nullptr;
    REQUIRE_ACL(aclrtBinaryLoadFromFile(CANOPY_TEST_KERNEL_LIBRARY, &options, &second));
    REQUIRE_ACL(aclrtBinaryUnLoad(second));
    const int unknown_type = 42;  // as a C caller would store it; no such enumerator
    std::memcpy(&option.type, &unknown_type, sizeof unknown_type);
    CHECK(aclrtBinaryLoadFromFile(CANOPY_TEST_KERNEL_LIBRARY, &options, &second) == ACL_ERROR_INVALID_PARAM);

    aclrtFuncHandle missing = nullptr;
    CHECK(aclrtBinaryGetFunction(binary, "no_such_kernel", &missing) == ACL_ERROR_RT_SYMBOL_NOT_FOUND);
    CHECK(contains(recent_error(), "its kernels: binary_axpy, binary_fill"));
    CHECK(aclrtBinaryLoadFromFile("/nonexistent/kernels.so", nullptr, &second) == ACL_ERROR_INVALID_FILE);
    CHECK(contains(recent_error(), "/nonexistent/kernels.so"));

    // A launch still queued keeps the library loaded; the handles die with the unload.
    REQUIRE_ACL(aclrtLaunchKernel(fill, 33, &packed, 12, stream.handle));
    REQUIRE_ACL(aclrtBinaryUnLoad(binary));
    REQUIRE_ACL(stream.synchronize());
    CHECK(aclrtLaunchKernel(fill, 1, &packed, 12, stream.handle) == ACL_ERROR_RT_INVALID_HANDLE);
    CHECK(aclrtBinaryGetFunction(binary, "binary_fill", &missing) == ACL_ERROR_RT_INVALID_HANDLE);
    CHECK(aclrtBinaryUnLoad(binary) == ACL_ERROR_RT_INVALID_HANDLE);
    CHECK(aclrtBinaryUnLoad(nullptr) == ACL_ERROR_INVALID_PARAM);
}

TEST_CASE("garbage, stale and foreign function handles give 107017, never a crash") {
    Runtime runtime;
    Stream stream;
    const uint64_t blob[4] = {};
    aclrtArgsHandle args = nullptr;
    for (void* handle : garbage_handles) {
        CAPTURE(handle);
        CHECK(aclrtLaunchKernel(handle, 1, blob, 8, stream.handle) == ACL_ERROR_RT_INVALID_HANDLE);
        CHECK(aclrtKernelArgsInit(handle, &args) == ACL_ERROR_RT_INVALID_HANDLE);
        CHECK(aclrtLaunchKernelWithConfig(handle, 1, stream.handle, nullptr, handle, nullptr) == ACL_ERROR_RT_INVALID_HANDLE);
        aclrtFuncHandle function = nullptr;
        CHECK(aclrtBinaryGetFunction(handle, "binary_fill", &function) == ACL_ERROR_RT_INVALID_HANDLE);
        CHECK(aclrtBinaryUnLoad(handle) == ACL_ERROR_RT_INVALID_HANDLE);
        uint64_t value = 0;
        aclrtParamHandle param = nullptr;
        CHECK(aclrtKernelArgsAppend(handle, &value, 8, &param) == ACL_ERROR_RT_INVALID_HANDLE);
        CHECK(aclrtKernelArgsFinalize(handle) == ACL_ERROR_RT_INVALID_HANDLE);
    }
    // A stream handle is not a function handle.
    CHECK(aclrtLaunchKernel(stream.handle, 1, blob, 8, stream.handle) == ACL_ERROR_RT_INVALID_HANDLE);
    CHECK(contains(recent_error(), "is not a live function handle"));
    CHECK(aclrtLaunchKernel(nullptr, 1, blob, 8, stream.handle) == ACL_ERROR_INVALID_PARAM);
    // A function handle from before aclFinalize is stale after a new aclInit.
    aclrtFuncHandle function = nullptr;
    REQUIRE_ACL(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&empty_kernel), &function));
    REQUIRE_ACL(aclrtResetDevice(0));
    REQUIRE_ACL(aclFinalize());
    REQUIRE_ACL(aclInit(nullptr));
    REQUIRE_ACL(aclrtSetDevice(0));
    CHECK(aclrtLaunchKernel(function, 1, blob, 0, nullptr) == ACL_ERROR_RT_INVALID_HANDLE);
    stream.handle = nullptr;
    // A symbol that is no registered kernel.
    CHECK(aclrtGetFuncBySymbol(reinterpret_cast<const void*>(&recent_error), &function) == ACL_ERROR_RT_INVALID_SYMBOL);
    CHECK(contains(recent_error(), "is not a registered kernel"));
}

TEST_CASE("SyncAll: cooperative kernels run all blocks at once; block-parallel ones get a clear error") {
    Runtime runtime;
    Stream stream;
    SUBCASE("a cooperative kernel synchronizes its blocks") {
        for (uint32_t blocks : {1u, 2u, 16u, 48u}) {
            CAPTURE(blocks);
            DeviceArray<uint32_t> slots(blocks), mismatches(1);
            REQUIRE_ACL(launch_two_phase(blocks, stream.handle, slots.get(), mismatches.get()));
            REQUIRE_ACL(stream.synchronize());
            CHECK(mismatches.read()[0] == 0);
        }
        // Too many blocks for one thread each.
        DeviceArray<uint32_t> slots(1), mismatches(1);
        CHECK(launch_two_phase(513, stream.handle, slots.get(), mismatches.get()) == ACL_ERROR_RT_PARAM_INVALID);
        CHECK(contains(recent_error(), "cooperative"));
    }
    SUBCASE("a block that skips a SyncAll the others wait in fails the launch instead of hanging it") {
        REQUIRE_ACL(launch_skips_sync(8, stream.handle, 5));
        CHECK(stream.synchronize() == ACL_ERROR_RT_AICORE_EXCEPTION);
        // Reported by block 5 if the others already wait, else by the first to arrive after it
        // returned; either names block 5.
        const std::string error = recent_error();
        CAPTURE(error);
        CHECK(contains(error, "kernel skips_sync block "));
        CHECK((contains(error, "block 5/8: SyncAll: the block returned while") ||
               contains(error, "already returned (block 5 first) without reaching it")));
    }
    SUBCASE("SyncAll in a block-parallel launch is an error naming SyncAll") {
        DeviceArray<uint32_t> after(64);
        REQUIRE_ACL(ACLRT_LAUNCH_KERNEL(plain_sync)(64, stream.handle, after.get()));
        CHECK(stream.synchronize() == ACL_ERROR_RT_AICORE_EXCEPTION);
        CHECK(contains(recent_error(), "kernel plain_sync block"));
        CHECK(contains(recent_error(), "SyncAll: kernel plain_sync runs its 64 blocks block-parallel"));
        // One block needs no other.
        REQUIRE_ACL(ACLRT_LAUNCH_KERNEL(plain_sync)(1, stream.handle, after.get()));
        CHECK(stream.synchronize() == ACL_SUCCESS);
    }
}

TEST_CASE("a launch needs a current context and a live stream of it") {
    Runtime runtime;
    DeviceArray<BlockRecord> records(4);
    CHECK(ACLRT_LAUNCH_KERNEL(count_blocks)(1, garbage_handles[0], records.get(), 1u) == ACL_ERROR_RT_INVALID_HANDLE);
    std::thread([&] {
        CHECK(ACLRT_LAUNCH_KERNEL(count_blocks)(1, nullptr, records.get(), 1u) == ACL_ERROR_RT_CONTEXT_NULL);
    }).join();
    REQUIRE_ACL(aclrtSynchronizeStream(nullptr));
    CHECK(records.read()[0].hits == 0);
}
