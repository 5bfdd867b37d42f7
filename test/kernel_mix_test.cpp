// __mix__ and __cube__ kernels: the cores each logical block runs on and what they answer
// (ASCEND_IS_AIC / AIV, GetBlockIdx, GetBlockNum, GetSubBlockIdx, GetTaskRatio, the Unified
// Buffer), and the cross-core flags (CrossCoreSetFlag / CrossCoreWaitFlag, modes 0, 1 and 2),
// with the misuses that fail a launch instead of hanging it.
#include <cstring>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "acl/acl.h"
#include "mix_kernels.h"
#include "support.h"

namespace {

using canopy_test::DeviceArray;
using canopy_test::recent_error;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct Runtime {
    aclrtStream stream = nullptr;
    Runtime() {
        REQUIRE(aclInit(nullptr) == ACL_SUCCESS);
        REQUIRE(aclrtSetDevice(0) == ACL_SUCCESS);
        REQUIRE_ACL(aclrtCreateStream(&stream));
    }
    ~Runtime() {
        aclrtDestroyStream(stream);
        aclrtResetDevice(0);
        aclFinalize();
    }
};

}  // namespace

TEST_CASE("__mix__(1, 2): each logical block runs one AIC and two AIVs, answering as on the NPU") {
    Runtime runtime;
    for (uint32_t blocks : {1u, 3u, 8u}) {
        CAPTURE(blocks);
        DeviceArray<CoreRecord> records(blocks * 3);
        DeviceArray<int32_t> values(blocks * 4);
        REQUIRE_ACL(launch_mix_identity(blocks, runtime.stream, records.get(), values.get()));
        REQUIRE_ACL(aclrtSynchronizeStream(runtime.stream));
        const std::vector<CoreRecord> seen = records.read();
        for (uint32_t block = 0; block < blocks; ++block) {
            CAPTURE(block);
            const CoreRecord& aic = seen[block * 3];
            CHECK(aic.core_type == 1);
            CHECK(aic.block_idx == int32_t(block));
            CHECK(aic.builtin == int32_t(block));
            CHECK(aic.block_num == int32_t(blocks));
            CHECK(aic.sub_block == 0);
            CHECK(aic.task_ratio == 1);
            CHECK(aic.has_ub == 0);
            // Released by both AIVs, which each added 1 to what the AIC published.
            CHECK(aic.seen == 2 * (int32_t(block) + 101));
            for (int32_t sub = 0; sub < 2; ++sub) {
                CAPTURE(sub);
                const CoreRecord& aiv = seen[block * 3 + 1 + sub];
                CHECK(aiv.core_type == 2);
                CHECK(aiv.block_idx == int32_t(block) * 2 + sub);
                CHECK(aiv.builtin == int32_t(block));
                CHECK(aiv.block_num == int32_t(blocks));
                CHECK(aiv.sub_block == sub);
                CHECK(aiv.task_ratio == 2);
                CHECK(aiv.has_ub == 1);
                // Released by its AIC after the AIC's store.
                CHECK(aiv.seen == int32_t(block) + 100);
            }
        }
    }
}

TEST_CASE("CrossCoreSetFlag modes 0 and 1 synchronize all AIVs of the launch or of one logical core") {
    Runtime runtime;
    SUBCASE("mode 0: every AIV of the launch, round after round on one flag") {
        const uint32_t blocks = 4;
        DeviceArray<CoreRecord> records(blocks * 3);
        DeviceArray<int32_t> counter(1);
        REQUIRE_ACL(launch_mix_all_aiv(blocks, runtime.stream, records.get(), counter.get()));
        REQUIRE_ACL(aclrtSynchronizeStream(runtime.stream));
        const std::vector<CoreRecord> seen = records.read();
        for (uint32_t core = 0; core < blocks * 3; ++core) {
            if (core % 3 == 0) continue;  // the AICs take no part
            CAPTURE(core);
            CHECK(seen[core].seen == 8 * 1000 + 16);
        }
    }
    SUBCASE("mode 1: the two AIVs of each logical core") {
        const uint32_t blocks = 5;
        DeviceArray<CoreRecord> records(blocks * 3);
        DeviceArray<int32_t> counters(blocks);
        REQUIRE_ACL(launch_mix_group_aiv(blocks, runtime.stream, records.get(), counters.get()));
        REQUIRE_ACL(aclrtSynchronizeStream(runtime.stream));
        const std::vector<CoreRecord> seen = records.read();
        for (uint32_t block = 0; block < blocks; ++block) {
            CHECK(seen[block * 3 + 1].seen == 2);
            CHECK(seen[block * 3 + 2].seen == 2);
        }
    }
}

TEST_CASE("__cube__ kernels run each block on one AIC, without a Unified Buffer") {
    Runtime runtime;
    DeviceArray<CoreRecord> records(4);
    REQUIRE_ACL(launch_cube_identity(4, runtime.stream, records.get()));
    REQUIRE_ACL(aclrtSynchronizeStream(runtime.stream));
    const std::vector<CoreRecord> seen = records.read();
    for (int32_t block = 0; block < 4; ++block) {
        CHECK(seen[block].core_type == 1);
        CHECK(seen[block].block_idx == block);
        CHECK(seen[block].block_num == 4);
        CHECK(seen[block].task_ratio == 1);
        CHECK(seen[block].has_ub == 0);
    }
}

TEST_CASE("a mix kernel's AIC may build UB tensors it never uses; using one fails the launch") {
    Runtime runtime;
    const uint32_t blocks = 3;
    DeviceArray<float> out(64);
    // A static tensor, and one carved by a TPipe on both cores.
    for (auto launch : {launch_mix_static_ub, launch_mix_carved_ub}) {
        REQUIRE_ACL(launch(blocks, runtime.stream, out.get(), 0));
        REQUIRE_ACL(aclrtSynchronizeStream(runtime.stream));
        const std::vector<float> seen = out.read();
        for (uint32_t aiv = 0; aiv < blocks * 2; ++aiv) CHECK(seen[aiv] == float(aiv + 1));
        for (int32_t use : {1, 2, 3}) {
            CAPTURE(use);
            REQUIRE_ACL(launch(blocks, runtime.stream, out.get(), use));
            CHECK(aclrtSynchronizeStream(runtime.stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
            const std::string error = recent_error();
            CAPTURE(error);
            CHECK(contains(error, "AIC 0: "));
            CHECK(contains(error, use == 1 ? "Duplicate" : use == 2 ? "LocalTensor::GetValue" : "DataCopy"));
            CHECK(contains(error, "which this core (an AIC) does not have"));
        }
    }
}

TEST_CASE("cross-core misuse fails the launch with a message naming the API and the core") {
    Runtime runtime;
    auto fails = [&](int32_t misuse, const char* part, uint32_t blocks = 2) {
        CAPTURE(misuse);
        REQUIRE_ACL(launch_mix_misuse(blocks, runtime.stream, misuse));
        CHECK(aclrtSynchronizeStream(runtime.stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
        const std::string error = recent_error();
        CAPTURE(error);
        CHECK(contains(error, part));
    };
    fails(0, "kernel mix_misuse block 1/2 AIV 1: CrossCoreWaitFlag: flag 7 of AIV 1 of block 1 is 0 and can never be set");
    fails(1, "kernel mix_misuse block 0/1 AIC 0: CrossCoreSetFlag: flagId 16 is outside [0, 15]", 1);
    fails(2, "already counts 15 sets it has not waited for");
    fails(3, "CrossCoreSetFlag: mode 1 synchronizes the AIVs of a logical core");
    fails(4, "CrossCoreSetFlag: modeId 3 is not a mode of the A2");
    fails(5, "CrossCoreSetFlag: pipe 0 cannot report a cross-core flag");
    // The AIV that skips the round waits too: every AIV waits, none can be released.
    fails(6, "kernel mix_misuse block 0/3 AIV 0: CrossCoreWaitFlag: flag 4 of AIV 0 of block 0 is 0", 3);
    // The stream works again afterwards.
    DeviceArray<CoreRecord> records(3);
    DeviceArray<int32_t> values(4);
    REQUIRE_ACL(launch_mix_identity(1, runtime.stream, records.get(), values.get()));
    REQUIRE_ACL(aclrtSynchronizeStream(runtime.stream));

    REQUIRE_ACL(launch_vector_cross_core(2, runtime.stream));
    CHECK(aclrtSynchronizeStream(runtime.stream) == ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK(contains(recent_error(), "CrossCoreSetFlag: kernel vector_cross_core is not a __mix__ kernel"));
}
