// Capture and replay: a captured chain of 1000 empty host functions replayed as one operation,
// against the same operations enqueued one by one and against a persistent raw oneTBB chain of
// 1000 continue_nodes; then the same 1000 operations over two forked and joined streams.
#include <memory>
#include <vector>

#include <oneapi/tbb/flow_graph.h>

#include "acl/acl.h"
#include "acl_runtime.h"
#include "driver.h"

namespace {

namespace flow = oneapi::tbb::flow;

constexpr int chain_length = 1000;

void check(aclError error, benchmark::State& state) {
    if (error != ACL_SUCCESS) state.SkipWithError(aclGetRecentErrMsg());
}

void nothing(void*) {}

void eager_chain(benchmark::State& state) {
    aclrtStream stream = canopy::bench::acl_runtime().stream;
    for (auto _ : state) {
        for (int i = 0; i < chain_length; ++i) aclrtLaunchHostFunc(stream, nothing, nullptr);
        check(aclrtSynchronizeStream(stream), state);
    }
    state.SetItemsProcessed(state.iterations() * chain_length);
}
BENCHMARK(eager_chain)->Name("replay_vs_eager_1000/baseline")->Unit(benchmark::kMicrosecond);

void replayed_chain(benchmark::State& state) {
    aclrtStream stream = canopy::bench::acl_runtime().stream;
    aclrtStream capturing = nullptr;
    aclmdlRI model = nullptr;
    check(aclrtCreateStream(&capturing), state);
    check(aclmdlRICaptureBegin(capturing, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), state);
    for (int i = 0; i < chain_length; ++i) aclrtLaunchHostFunc(capturing, nothing, nullptr);
    check(aclmdlRICaptureEnd(capturing, &model), state);
    for (auto _ : state) {
        aclmdlRIExecuteAsync(model, stream);
        check(aclrtSynchronizeStream(stream), state);
    }
    state.SetItemsProcessed(state.iterations() * chain_length);
    aclmdlRIDestroy(model);
    aclrtDestroyStream(capturing);
}
BENCHMARK(replayed_chain)->Name("replay_vs_eager_1000/canopy")->Unit(benchmark::kMicrosecond);
BENCHMARK(replayed_chain)->Name("replay_vs_flow_1000/canopy")->Unit(benchmark::kMicrosecond);

void flow_chain(benchmark::State& state) {
    using node_t = flow::continue_node<flow::continue_msg>;
    flow::graph graph;
    std::vector<std::unique_ptr<node_t>> nodes;
    for (int i = 0; i < chain_length; ++i) {
        nodes.push_back(std::make_unique<node_t>(graph, [](const flow::continue_msg&) {}));
        if (i > 0) flow::make_edge(*nodes[i - 1], *nodes[i]);
    }
    for (auto _ : state) {
        nodes.front()->try_put(flow::continue_msg());
        graph.wait_for_all();
    }
    state.SetItemsProcessed(state.iterations() * chain_length);
}
BENCHMARK(flow_chain)->Name("replay_vs_flow_1000/baseline")->Unit(benchmark::kMicrosecond);

// The same 1000 operations over two streams, forked and joined through events: the replay goes
// through TBB (a node per stream's run of tasks, make_edge for the event edges).
constexpr int branch_length = chain_length / 2;

struct ForkJoin {
    aclrtStream side = nullptr;
    aclrtEvent fork = nullptr, join = nullptr;
    ForkJoin() {
        aclrtCreateStream(&side);
        aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC);
        aclrtCreateEventExWithFlag(&join, ACL_EVENT_SYNC);
    }
    ~ForkJoin() {
        aclrtDestroyEvent(fork);
        aclrtDestroyEvent(join);
        aclrtDestroyStream(side);
    }
    void enqueue(aclrtStream origin) const {
        aclrtRecordEvent(fork, origin);
        aclrtStreamWaitEvent(side, fork);
        for (int i = 0; i < branch_length; ++i) {
            aclrtLaunchHostFunc(origin, nothing, nullptr);
            aclrtLaunchHostFunc(side, nothing, nullptr);
        }
        aclrtRecordEvent(join, side);
        aclrtStreamWaitEvent(origin, join);
    }
};

void eager_fork_join(benchmark::State& state) {
    aclrtStream stream = canopy::bench::acl_runtime().stream;
    ForkJoin shape;
    for (auto _ : state) {
        shape.enqueue(stream);
        check(aclrtSynchronizeStream(stream), state);
    }
    state.SetItemsProcessed(state.iterations() * chain_length);
}
BENCHMARK(eager_fork_join)->Name("fork_join_replay_vs_eager_1000/baseline")->Unit(benchmark::kMicrosecond);

void replayed_fork_join(benchmark::State& state) {
    aclrtStream stream = canopy::bench::acl_runtime().stream;
    aclrtStream capturing = nullptr;
    aclmdlRI model = nullptr;
    check(aclrtCreateStream(&capturing), state);
    ForkJoin shape;
    check(aclmdlRICaptureBegin(capturing, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), state);
    shape.enqueue(capturing);
    check(aclmdlRICaptureEnd(capturing, &model), state);
    for (auto _ : state) {
        aclmdlRIExecuteAsync(model, stream);
        check(aclrtSynchronizeStream(stream), state);
    }
    state.SetItemsProcessed(state.iterations() * chain_length);
    aclmdlRIDestroy(model);
    aclrtDestroyStream(capturing);
}
BENCHMARK(replayed_fork_join)->Name("fork_join_replay_vs_eager_1000/canopy")->Unit(benchmark::kMicrosecond);
BENCHMARK(replayed_fork_join)->Name("fork_join_replay_vs_flow_1000/canopy")->Unit(benchmark::kMicrosecond);

// Two chains of 500 continue_nodes between a source and a sink.
void flow_fork_join(benchmark::State& state) {
    using node_t = flow::continue_node<flow::continue_msg>;
    flow::graph graph;
    node_t source(graph, [](const flow::continue_msg&) {});
    node_t sink(graph, [](const flow::continue_msg&) {});
    std::vector<std::unique_ptr<node_t>> nodes;
    for (int branch = 0; branch < 2; ++branch) {
        node_t* previous = &source;
        for (int i = 0; i < branch_length; ++i) {
            nodes.push_back(std::make_unique<node_t>(graph, [](const flow::continue_msg&) {}));
            flow::make_edge(*previous, *nodes.back());
            previous = nodes.back().get();
        }
        flow::make_edge(*previous, sink);
    }
    for (auto _ : state) {
        source.try_put(flow::continue_msg());
        graph.wait_for_all();
    }
    state.SetItemsProcessed(state.iterations() * chain_length);
}
BENCHMARK(flow_fork_join)->Name("fork_join_replay_vs_flow_1000/baseline")->Unit(benchmark::kMicrosecond);

const bool targets = [] {
    canopy::bench::register_target("replay_vs_eager_1000", 0.3);
    canopy::bench::register_target("replay_vs_flow_1000", 2.0);
    canopy::bench::register_target("fork_join_replay_vs_eager_1000", 0.3);
    canopy::bench::register_target("fork_join_replay_vs_flow_1000", 2.0);
    return true;
}();

}  // namespace
