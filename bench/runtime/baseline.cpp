// Raw oneTBB baselines for the runtime benchmarks: what the same work costs with no runtime.
#include <cstring>
#include <initializer_list>
#include <memory>
#include <vector>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include "driver.h"

namespace {

namespace flow = oneapi::tbb::flow;

void one_node_graph(benchmark::State& state) {
    flow::graph graph;
    flow::continue_node<flow::continue_msg> node(graph, [](const flow::continue_msg&) {});
    for (auto _ : state) {
        node.try_put(flow::continue_msg());
        graph.wait_for_all();
    }
}
BENCHMARK(one_node_graph)->Name("host_task_round_trip/baseline");

constexpr int chain_length = 100'000;

// A chain of continue_nodes, built and run: what a stream of 100k operations is in raw flow graph.
void continue_node_chain(benchmark::State& state) {
    using node_t = flow::continue_node<flow::continue_msg>;
    for (auto _ : state) {
        auto graph = std::make_unique<flow::graph>();
        std::vector<std::unique_ptr<node_t>> nodes;
        nodes.reserve(chain_length);
        for (int i = 0; i < chain_length; ++i) {
            nodes.push_back(std::make_unique<node_t>(*graph, [](const flow::continue_msg&) {}));
            if (i > 0) flow::make_edge(*nodes[i - 1], *nodes[i]);
        }
        nodes.front()->try_put(flow::continue_msg());
        graph->wait_for_all();
        // Tearing the chain down is not part of the baseline (Canopy recycles its nodes instead).
        state.PauseTiming();
        nodes.clear();
        graph.reset();
        state.ResumeTiming();
    }
    state.SetItemsProcessed(state.iterations() * chain_length);
}
BENCHMARK(continue_node_chain)->Name("chain_100k/baseline")->Unit(benchmark::kMillisecond);

constexpr int hops = 10'000;

// The per-node cost of running (not building) a chain: the reference for a cross-stream hop.
void chain_execution(benchmark::State& state) {
    flow::graph graph;
    std::vector<std::unique_ptr<flow::continue_node<flow::continue_msg>>> nodes;
    for (int i = 0; i < hops; ++i) {
        nodes.push_back(
            std::make_unique<flow::continue_node<flow::continue_msg>>(graph, [](const flow::continue_msg&) {}));
        if (i > 0) flow::make_edge(*nodes[i - 1], *nodes[i]);
    }
    for (auto _ : state) {
        nodes.front()->try_put(flow::continue_msg());
        graph.wait_for_all();
    }
    state.SetItemsProcessed(state.iterations() * hops);
}
BENCHMARK(chain_execution)->Name("event_ping_pong_10k_hops/baseline")->Unit(benchmark::kMillisecond);
BENCHMARK(chain_execution)->Name("event_ping_pong_timed_10k_hops/baseline")->Unit(benchmark::kMillisecond);

// What the queued ping-pong is in raw flow graph: two chains of continue_nodes (a record and a wait
// of each stream per round) with an edge for every hop from one to the other, built and run, as
// chain_100k's baseline is (the streams' nodes are built when the hops are enqueued).
void two_chains_with_hops(benchmark::State& state) {
    using node_t = flow::continue_node<flow::continue_msg>;
    for (auto _ : state) {
        auto graph = std::make_unique<flow::graph>();
        std::vector<std::unique_ptr<node_t>> nodes;
        nodes.reserve(2 * hops);
        auto add = [&](std::initializer_list<node_t*> predecessors) {
            nodes.push_back(std::make_unique<node_t>(*graph, [](const flow::continue_msg&) {}));
            for (node_t* predecessor : predecessors) flow::make_edge(*predecessor, *nodes.back());
            return nodes.back().get();
        };
        node_t* ping = nullptr;
        node_t* pong = nullptr;
        node_t* first = nullptr;
        for (int i = 0; i < hops / 2; ++i) {
            node_t* to_pong = ping ? add({ping}) : (first = add({}));
            pong = pong ? add({pong, to_pong}) : add({to_pong});
            node_t* to_ping = add({pong});
            ping = add({to_pong, to_ping});
            pong = to_ping;
        }
        first->try_put(flow::continue_msg());
        graph->wait_for_all();
        state.PauseTiming();
        nodes.clear();
        graph.reset();
        state.ResumeTiming();
    }
    state.SetItemsProcessed(state.iterations() * hops);
}
BENCHMARK(two_chains_with_hops)->Name("event_ping_pong_queued_10k_hops/baseline")->Unit(benchmark::kMillisecond);

constexpr std::size_t copy_bytes = std::size_t{64} << 20;

void parallel_memcpy(benchmark::State& state) {
    std::vector<unsigned char> source(copy_bytes, 1), target(copy_bytes, 0);
    oneapi::tbb::task_arena two_threads(2);
    constexpr std::size_t piece = std::size_t{1} << 20;
    for (auto _ : state) {
        two_threads.execute([&] {
            oneapi::tbb::parallel_for(std::size_t{0}, copy_bytes / piece, [&](std::size_t i) {
                std::memcpy(target.data() + i * piece, source.data() + i * piece, piece);
            });
        });
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(copy_bytes));
}
BENCHMARK(parallel_memcpy)->Name("memcpy_h2d_64mib/baseline")->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
