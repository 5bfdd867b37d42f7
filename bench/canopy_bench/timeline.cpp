#include "timeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace canopy_bench {

namespace {

// The runtime's process for the threads' tracks (kernel blocks, host markers): not a device.
constexpr int threads_pid = 1000;

std::string xml_escaped(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '&': out += "&amp;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

const char* colour(const std::string& kind) {
    if (kind == "kernel") return "#4e79a7";
    if (kind == "memcpy") return "#f28e2b";
    if (kind == "memset") return "#edc948";
    if (kind == "event record" || kind == "event wait" || kind == "event reset") return "#59a14f";
    if (kind == "host function" || kind == "callback") return "#b07aa1";
    return "#9c9c9c";
}

// A round step for the axis: 1, 2 or 5 times a power of ten, giving about `ticks` ticks.
double tick_step(double span, int ticks) {
    const double raw = span / ticks;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * power) return m * power;
    return 10 * power;
}

}  // namespace

Timeline read_timeline(const std::string& path) {
    std::ifstream file(path);
    if (!file) throw std::runtime_error(path + ": the trace was not written");
    nlohmann::json trace;
    try {
        trace = nlohmann::json::parse(file);
    } catch (const nlohmann::json::exception& error) {
        throw std::runtime_error(path + ": not a valid trace: " + error.what());
    }
    Timeline timeline;
    for (const auto& e : trace.at("traceEvents")) {
        if (e.value("ph", "") != "X" || e.value("pid", -1) == threads_pid || !e.contains("args") ||
            !e["args"].contains("kind"))
            continue;
        timeline.slices.push_back({e.at("pid").get<int>(), e.at("tid").get<int>(), e.at("name").get<std::string>(),
                                   e["args"]["kind"].get<std::string>(), e.at("ts").get<double>(),
                                   e.at("dur").get<double>()});
    }
    return timeline;
}

std::vector<ProfileRow> profile(const Timeline& timeline) {
    std::map<std::string, ProfileRow> rows;
    for (const Timeline::Slice& s : timeline.slices) {
        if (s.kind != "kernel" && s.kind != "memcpy" && s.kind != "memset") continue;
        ProfileRow& row = rows[s.name];
        if (row.count == 0) {
            row.type = s.name;
            row.kind = s.kind;
            row.min_us = row.max_us = s.duration_us;
        }
        ++row.count;
        row.total_us += s.duration_us;
        row.min_us = std::min(row.min_us, s.duration_us);
        row.max_us = std::max(row.max_us, s.duration_us);
    }
    std::vector<ProfileRow> result;
    for (auto& [type, row] : rows) result.push_back(row);
    std::stable_sort(result.begin(), result.end(),
                     [](const ProfileRow& a, const ProfileRow& b) { return a.total_us > b.total_us; });
    return result;
}

bool write_svg(const Timeline& timeline, const std::string& path) {
    std::set<std::pair<int, int>> tracks;
    double begin = 0, end = 0;
    bool any = false;
    for (const Timeline::Slice& s : timeline.slices) {
        tracks.insert({s.device, s.stream});
        begin = any ? std::min(begin, s.begin_us) : s.begin_us;
        end = any ? std::max(end, s.begin_us + s.duration_us) : s.begin_us + s.duration_us;
        any = true;
    }
    const double span = std::max(end - begin, 1.0);
    const int label_width = 130, chart_width = 1200, row_height = 22, top = 40, legend = 30;
    const int rows = static_cast<int>(tracks.size());
    const int height = top + rows * row_height + 40 + legend;
    std::map<std::pair<int, int>, int> row_of;
    for (const auto& track : tracks) row_of[track] = static_cast<int>(row_of.size());
    auto x_of = [&](double us) { return label_width + (us - begin) / span * chart_width; };

    std::ofstream svg(path);
    char buffer[512];
    svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    std::snprintf(buffer, sizeof buffer,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                  "font-family=\"sans-serif\" font-size=\"11\">\n",
                  label_width + chart_width + 20, height, label_width + chart_width + 20, height);
    svg << buffer;
    svg << "<title>canopy-bench: operations per stream over time</title>\n";
    svg << "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    svg << "<text x=\"10\" y=\"20\" font-size=\"14\">operations per stream (" << timeline.slices.size()
        << " operations)</text>\n";
    for (const auto& [track, row] : row_of) {
        const int y = top + row * row_height;
        std::snprintf(buffer, sizeof buffer,
                      "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n"
                      "<text x=\"10\" y=\"%d\">device %d stream %d</text>\n",
                      label_width, y, chart_width, row_height, row % 2 ? "#f4f4f4" : "#ffffff", y + 15, track.first,
                      track.second);
        svg << buffer;
    }
    for (const Timeline::Slice& s : timeline.slices) {
        const int y = top + row_of[{s.device, s.stream}] * row_height + 3;
        const double x = x_of(s.begin_us);
        const double w = std::max(0.5, s.duration_us / span * chart_width);
        std::snprintf(buffer, sizeof buffer,
                      "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>", x, y, w,
                      row_height - 6, colour(s.kind));
        svg << buffer << xml_escaped(s.name);
        std::snprintf(buffer, sizeof buffer, ": %.3f us at %.3f us</title></rect>\n", s.duration_us, s.begin_us - begin);
        svg << buffer;
    }
    // The time axis, in milliseconds from the first operation.
    const int axis = top + rows * row_height + 4;
    std::snprintf(buffer, sizeof buffer, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
                  label_width, axis, label_width + chart_width, axis);
    svg << buffer;
    const double step = tick_step(span, 10);
    for (double t = 0; t <= span + step * 1e-9; t += step) {
        const double x = x_of(begin + t);
        std::snprintf(buffer, sizeof buffer,
                      "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"black\"/>"
                      "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">%g ms</text>\n",
                      x, axis, x, axis + 5, x, axis + 18, t / 1000.0);
        svg << buffer;
    }
    int lx = label_width;
    for (const char* kind : {"kernel", "memcpy", "memset", "event record", "host function"}) {
        std::snprintf(buffer, sizeof buffer,
                      "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                      "<text x=\"%d\" y=\"%d\">%s</text>\n",
                      lx, axis + 28, colour(kind), lx + 16, axis + 38,
                      std::string(kind) == "event record" ? "event" : kind);
        svg << buffer;
        lx += 110;
    }
    svg << "</svg>\n";
    svg.close();
    return static_cast<bool>(svg);
}

}  // namespace canopy_bench
