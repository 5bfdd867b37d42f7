// Labels in a model built task by task: aclrtCreateLabel, aclrtSetLabel, aclrtCreateLabelList,
// aclrtSwitchLabelByIndex, and the model calls they need (aclmdlRIBuildBegin, aclmdlRIBindStream,
// aclmdlRIEndTask, aclmdlRIBuildEnd, aclmdlRIExecuteAsync, aclmdlRIUnbindStream, aclmdlRIDestroy).
#include "support.h"

using namespace canopy_test;

namespace {
// A model on one persistent stream: switch(index) ; label0 ; +1 ; label1 ; +10.
struct SwitchModel {
    SwitchModel() : stream(0, ACL_STREAM_PERSISTENT) {
        REQUIRE_ACL(aclrtMalloc(reinterpret_cast<void**>(&index), sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST));
        REQUIRE_ACL(aclmdlRIBuildBegin(&model, 0));
        REQUIRE_ACL(aclmdlRIBindStream(model, stream, ACL_MODEL_STREAM_FLAG_HEAD));
        for (aclrtLabel& label : labels) REQUIRE_ACL(aclrtCreateLabel(&label));
        REQUIRE_ACL(aclrtCreateLabelList(labels, 2, &list));
        REQUIRE_ACL(aclrtSwitchLabelByIndex(index, 2, list, stream));
        REQUIRE_ACL(aclrtSetLabel(labels[0], stream));
        REQUIRE_ACL(aclrtLaunchHostFunc(stream, add_one, &counter));
        REQUIRE_ACL(aclrtSetLabel(labels[1], stream));
        REQUIRE_ACL(aclrtLaunchHostFunc(stream, add_ten, &counter));
        REQUIRE_ACL(aclmdlRIEndTask(model, stream));
        REQUIRE_ACL(aclmdlRIBuildEnd(model, nullptr));
    }
    ~SwitchModel() {
        aclmdlRIUnbindStream(model, stream);
        aclmdlRIDestroy(model);
        aclrtDestroyLabelList(list);
        for (aclrtLabel label : labels) aclrtDestroyLabel(label);
        aclrtFree(index);
    }
    int run(uint32_t branch, aclrtStream executor) {
        REQUIRE_ACL(aclrtMemcpy(index, 4, &branch, 4, ACL_MEMCPY_HOST_TO_DEVICE));
        const int before = counter.load();
        REQUIRE_ACL(aclmdlRIExecuteAsync(model, executor));
        REQUIRE_ACL(aclrtSynchronizeStream(executor));
        return counter.load() - before;
    }
    static void add_one(void* counter) { static_cast<std::atomic<int>*>(counter)->fetch_add(1); }
    static void add_ten(void* counter) { static_cast<std::atomic<int>*>(counter)->fetch_add(10); }

    Stream stream;
    uint32_t* index = nullptr;
    aclmdlRI model = nullptr;
    aclrtLabel labels[2] = {};
    aclrtLabelList list = nullptr;
    std::atomic<int> counter{0};
};
}  // namespace

TEST_CASE("a label switch continues after the label its index picks, each time the model runs") {
    Runtime runtime;
    SwitchModel model;
    CHECK(model.counter.load() == 0);  // the bound stream recorded its work instead of running it
    Stream executor;
    CHECK(model.run(0, executor) == 11);
    CHECK(model.run(1, executor) == 10);
    CHECK(model.run(7, executor) == 10);  // past the list: the last label
    CHECK(model.run(0, executor) == 11);
}

TEST_CASE("a switch to a label on another bound stream continues there") {
    Runtime runtime;
    Stream head(0, ACL_STREAM_PERSISTENT), branch(0, ACL_STREAM_PERSISTENT), executor;
    uint32_t* index = nullptr;
    REQUIRE_ACL(aclrtMalloc(reinterpret_cast<void**>(&index), 4, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMemset(index, 4, 0, 4));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRIBuildBegin(&model, 0));
    REQUIRE_ACL(aclmdlRIBindStream(model, head, ACL_MODEL_STREAM_FLAG_HEAD));
    REQUIRE_ACL(aclmdlRIBindStream(model, branch, ACL_MODEL_STREAM_FLAG_DEFAULT));
    aclrtLabel label = nullptr;
    REQUIRE_ACL(aclrtCreateLabel(&label));
    aclrtLabelList list = nullptr;
    REQUIRE_ACL(aclrtCreateLabelList(&label, 1, &list));
    std::atomic<int> counter{0};
    REQUIRE_ACL(aclrtSwitchLabelByIndex(index, 1, list, head));
    REQUIRE_ACL(launch_increment(head, counter));  // skipped: the switch leaves the head stream
    REQUIRE_ACL(aclrtSetLabel(label, branch));
    for (int i = 0; i < 3; ++i) REQUIRE_ACL(launch_increment(branch, counter));
    REQUIRE_ACL(aclmdlRIEndTask(model, head));
    REQUIRE_ACL(aclmdlRIEndTask(model, branch));
    REQUIRE_ACL(aclmdlRIBuildEnd(model, nullptr));
    REQUIRE_ACL(aclmdlRIExecuteAsync(model, executor));
    REQUIRE_ACL(aclrtSynchronizeStream(executor));
    CHECK(counter.load() == 3);
    REQUIRE_ACL(aclmdlRIDestroy(model));
    // Destroying the model unbinds its streams: they run their work again.
    REQUIRE_ACL(launch_increment(head, counter));
    REQUIRE_ACL(aclrtSynchronizeStream(head));
    CHECK(counter.load() == 4);
    REQUIRE_ACL(aclrtDestroyLabelList(list));
    REQUIRE_ACL(aclrtDestroyLabel(label));
    REQUIRE_ACL(aclrtFree(index));
}

TEST_CASE("labels and models check their arguments and states") {
    Runtime runtime;
    Stream plain, persistent(0, ACL_STREAM_PERSISTENT);
    aclrtLabel label = nullptr;
    CHECK_ACL_CODE(aclrtCreateLabel(nullptr), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclrtCreateLabel(&label));
    // Outside a model a label cannot be set.
    CHECK_ACL_CODE(aclrtSetLabel(label, plain), ACL_ERROR_RT_STREAM_MODEL);
    aclrtLabelList list = nullptr;
    CHECK_ACL_CODE(aclrtCreateLabelList(&label, 0, &list), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtCreateLabelList(nullptr, 1, &list), ACL_ERROR_INVALID_PARAM);
    aclrtLabel stale = reinterpret_cast<aclrtLabel>(0x1234);
    CHECK_ACL_CODE(aclrtCreateLabelList(&stale, 1, &list), ACL_ERROR_RT_INVALID_HANDLE);
    REQUIRE_ACL(aclrtCreateLabelList(&label, 1, &list));
    uint32_t* index = nullptr;
    REQUIRE_ACL(aclrtMalloc(reinterpret_cast<void**>(&index), 4, ACL_MEM_MALLOC_HUGE_FIRST));
    uint32_t host_index = 0;
    aclmdlRI model = nullptr;
    CHECK_ACL_CODE(aclmdlRIBuildBegin(nullptr, 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclmdlRIBuildBegin(&model, 1), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclmdlRIBuildBegin(&model, 0));
    CHECK_ACL_CODE(aclmdlRIBindStream(model, plain, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclmdlRIBindStream(model, nullptr, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclmdlRIBindStream(model, persistent, 5), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclmdlRIBindStream(model, persistent, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK_ACL_CODE(aclmdlRIBindStream(model, persistent, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_STREAM_MODEL);
    CHECK_ACL_CODE(aclrtSwitchLabelByIndex(index, 2, list, persistent), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtSwitchLabelByIndex(&host_index, 1, list, persistent), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtSwitchLabelByIndex(nullptr, 1, list, persistent), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtSwitchLabelByIndex(index, 1, nullptr, persistent), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclrtSwitchLabelByIndex(index, 1, list, plain), ACL_ERROR_RT_STREAM_MODEL);
    REQUIRE_ACL(aclrtSetLabel(label, persistent));
    CHECK_ACL_CODE(aclrtSetLabel(label, persistent), ACL_ERROR_INVALID_PARAM);
    Stream executor;
    CHECK_ACL_CODE(aclmdlRIExecuteAsync(model, executor), ACL_ERROR_RT_STREAM_MODEL);  // still building
    REQUIRE_ACL(aclmdlRIEndTask(model, persistent));
    CHECK_ACL_CODE(aclrtSetLabel(label, persistent), ACL_ERROR_RT_STREAM_MODEL);  // tasks ended
    std::atomic<int> late{0};
    CHECK_ACL_CODE(launch_increment(persistent, late), ACL_ERROR_RT_STREAM_MODEL);  // its recorder refuses
    CHECK(recent_error().find("aclmdlRIEndTask") != std::string::npos);
    CHECK_ACL_CODE(aclmdlRIEndTask(model, plain), ACL_ERROR_RT_STREAM_MODEL);
    CHECK_ACL_CODE(aclmdlRIBuildEnd(model, index), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclmdlRIBuildEnd(model, nullptr));
    CHECK_ACL_CODE(aclmdlRIBuildEnd(model, nullptr), ACL_ERROR_RT_STREAM_MODEL);
    CHECK_ACL_CODE(aclmdlRIExecuteAsync(model, persistent), ACL_ERROR_RT_STREAM_MODEL);
    REQUIRE_ACL(aclmdlRIExecuteAsync(model, executor));
    REQUIRE_ACL(aclrtSynchronizeStream(executor));
    REQUIRE_ACL(aclmdlRIUnbindStream(model, persistent));
    CHECK_ACL_CODE(aclmdlRIUnbindStream(model, persistent), ACL_ERROR_RT_STREAM_MODEL);
    REQUIRE_ACL(aclmdlRIDestroy(model));
    CHECK_ACL_CODE(aclmdlRIDestroy(model), ACL_ERROR_RT_INVALID_HANDLE);
    REQUIRE_ACL(aclrtDestroyLabelList(list));
    CHECK_ACL_CODE(aclrtDestroyLabelList(list), ACL_ERROR_RT_INVALID_HANDLE);
    REQUIRE_ACL(aclrtDestroyLabel(label));
    CHECK_ACL_CODE(aclrtDestroyLabel(label), ACL_ERROR_RT_INVALID_HANDLE);
    REQUIRE_ACL(aclrtFree(index));
}

TEST_CASE("a bound stream that is destroyed leaves its model, which still runs what it recorded") {
    Runtime runtime;
    std::atomic<int> counter{0};
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRIBuildBegin(&model, 0));
    {
        Stream bound(0, ACL_STREAM_PERSISTENT);
        REQUIRE_ACL(aclmdlRIBindStream(model, bound, ACL_MODEL_STREAM_FLAG_HEAD));
        REQUIRE_ACL(launch_increment(bound, counter));
        REQUIRE_ACL(aclmdlRIEndTask(model, bound));
    }  // destroyed while bound
    REQUIRE_ACL(aclmdlRIBuildEnd(model, nullptr));
    CHECK(counter.load() == 0);
    // Streams made now (one may take the destroyed stream's place in memory) are not bound to it.
    for (int i = 0; i < 4; ++i) {
        Stream fresh(0, ACL_STREAM_PERSISTENT);
        CHECK_ACL_CODE(aclmdlRIUnbindStream(model, fresh), ACL_ERROR_RT_STREAM_MODEL);
        REQUIRE_ACL(launch_increment(fresh, counter));  // runs
        REQUIRE_ACL(aclmdlRIExecuteAsync(model, fresh));
        REQUIRE_ACL(aclrtSynchronizeStream(fresh));
    }
    CHECK(counter.load() == 8);
    REQUIRE_ACL(aclmdlRIDestroy(model));
}
