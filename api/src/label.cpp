// Labels: positions in the task list of a stream bound to a model that is being built
// (aclrtSetLabel), gathered in lists (aclrtCreateLabelList) that a switch task (aclrtSwitchLabelByIndex)
// indexes with a value read from device memory when the model runs: execution continues after the
// chosen label, on the label's stream, and the switching stream's later tasks are skipped (the
// engine's canopy/engine/model.h runs them). Labels have no meaning outside a model, as in CANN
// (aclrtSetLabel needs a bound stream).
#include "canopy/engine/detail/checked.h"
#include "canopy/engine/memory.h"
#include "model_build.h"

namespace canopy::api {

namespace {

constexpr std::size_t max_labels_per_list = 65535;

std::shared_ptr<engine::Label> label_handle(State& state, aclrtLabel handle, const std::string& argument) {
    if (!handle) fail(ACL_ERROR_INVALID_PARAM, argument + " is NULL");
    std::shared_ptr<engine::Label> label = state.labels.share(handle);
    if (!label) fail(ACL_ERROR_RT_INVALID_HANDLE, argument + " " + describe(handle) + " is not a live label");
    return label;
}

std::shared_ptr<engine::LabelList> label_list_handle(State& state, aclrtLabelList handle) {
    require(handle, "labelList");
    std::shared_ptr<engine::LabelList> list = state.label_lists.share(handle);
    if (!list) fail(ACL_ERROR_RT_INVALID_HANDLE, "labelList " + describe(handle) + " is not a live label list");
    return list;
}

}  // namespace

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclrtCreateLabel(aclrtLabel* label) {
    return call("aclrtCreateLabel", [&] {
        require(label, "label");
        State& s = state();
        current_context(s);
        *label = s.labels.add(std::make_shared<engine::Label>());
    });
}

aclError aclrtDestroyLabel(aclrtLabel label) {
    return call("aclrtDestroyLabel", [&] {
        State& s = state();
        label_handle(s, label, "label");
        // Lists and built models that use it keep it.
        s.labels.remove(label);
    });
}

aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream) {
    return call("aclrtSetLabel", [&] {
        State& s = state();
        std::shared_ptr<engine::Label> target = label_handle(s, label, "label");
        require(stream, "stream");
        std::unique_lock<std::mutex> model_lock;
        engine::ModelStream& recording = recording_stream(s, stream, model_lock);
        std::lock_guard lock(target->mutex);
        if (target->stream) fail(ACL_ERROR_INVALID_PARAM, "label " + describe(label) + " is already set on a stream");
        target->stream = &recording;
        target->position = recording.tasks.size();
        recording.tasks.push_back(engine::ModelTask{engine::ModelTask::Kind::label});
    });
}

aclError aclrtCreateLabelList(aclrtLabel* labels, size_t num, aclrtLabelList* labelList) {
    return call("aclrtCreateLabelList", [&] {
        require(labels, "labels");
        require(labelList, "labelList");
        if (num == 0 || num > max_labels_per_list)
            fail(ACL_ERROR_INVALID_PARAM, "num " + std::to_string(num) + " is outside (0, 65535]");
        State& s = state();
        auto list = std::make_shared<engine::LabelList>();
        for (std::size_t i = 0; i < num; ++i) list->labels.push_back(label_handle(s, labels[i], "labels[" + std::to_string(i) + "]"));
        *labelList = s.label_lists.add(std::move(list));
    });
}

aclError aclrtDestroyLabelList(aclrtLabelList labelList) {
    return call("aclrtDestroyLabelList", [&] {
        State& s = state();
        label_list_handle(s, labelList);
        s.label_lists.remove(labelList);
    });
}

aclError aclrtSwitchLabelByIndex(void* ptr, uint32_t maxValue, aclrtLabelList labelList, aclrtStream stream) {
    return call("aclrtSwitchLabelByIndex", [&] {
        require(ptr, "ptr");
        State& s = state();
        std::shared_ptr<engine::LabelList> list = label_list_handle(s, labelList);
        if (maxValue == 0 || maxValue > list->labels.size()) {
            fail(ACL_ERROR_INVALID_PARAM, "maxValue " + std::to_string(maxValue) + " is outside [1, " +
                                              std::to_string(list->labels.size()) + "], the labels of labelList");
        }
        const std::optional<engine::Allocation> allocation = allocation_of(s, ptr, "ptr");
        if (!allocation || allocation->kind != engine::MemoryKind::device)
            fail(ACL_ERROR_INVALID_PARAM, "ptr " + describe(ptr) + " is not device memory from aclrtMalloc");
        if (!engine::detail::fits(reinterpret_cast<std::uintptr_t>(ptr) - allocation->base, sizeof(std::uint32_t), allocation->size))
            fail(ACL_ERROR_INVALID_PARAM, "ptr " + describe(ptr) + ": the 4-byte index runs past the end of its allocation");
        if (reinterpret_cast<std::uintptr_t>(ptr) % alignof(std::uint32_t) != 0)
            fail(ACL_ERROR_INVALID_PARAM, "ptr " + describe(ptr) + " is not 4-byte aligned");
        require(stream, "stream");
        std::unique_lock<std::mutex> model_lock;
        engine::ModelStream& recording = recording_stream(s, stream, model_lock);
        engine::ModelTask task{engine::ModelTask::Kind::switch_by_index};
        task.labels = std::move(list);
        task.index = static_cast<const std::uint32_t*>(ptr);
        task.max_value = maxValue;
        recording.tasks.push_back(std::move(task));
    });
}

}  // extern "C"
