// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/triage.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QString>

#include "model/cost/costmodel.h"
#include "model/cost/jsoninput.h"
#include "model/cost/messagetext.h"
#include "model/cost/scenariokeys.h"

namespace ridgeline::model {

namespace {

/** printf-style formatting into a std::string (short, C locale digits). */
template <typename... Args>
std::string fmt(const char* pattern, Args... args)
{
    char buffer[512];
    std::snprintf(buffer, sizeof buffer, pattern, args...);
    return buffer;
}

std::string ms(double milliseconds)
{
    if (milliseconds >= 1000)
        return fmt("%.2f s", milliseconds / 1000);
    if (milliseconds >= 100)
        return fmt("%.0f ms", milliseconds);
    return fmt("%.1f ms", milliseconds);
}

std::string gb(double bytes) { return fmt("%.1f GB", bytes / 1e9); }

} // namespace

std::string ticketClassId(TicketClass c)
{
    switch (c) {
    case TicketClass::Prefill: return "prefill";
    case TicketClass::Decode: return "decode";
    case TicketClass::Admission: return "admission";
    case TicketClass::NoisyNeighbourPrefill: return "noisy_neighbour_prefill";
    case TicketClass::KvCapacity: return "kv_capacity";
    case TicketClass::WithinSlo: return "within_slo";
    case TicketClass::Inconsistent: return "inconsistent";
    case TicketClass::NotEnoughData: return "not_enough_data";
    }
    return "within_slo";
}

std::string ticketClassName(TicketClass c)
{
    switch (c) {
    case TicketClass::Prefill: return "prefill / TTFT";
    case TicketClass::Decode: return "decode";
    case TicketClass::Admission: return "admission / concurrency";
    case TicketClass::NoisyNeighbourPrefill: return "noisy-neighbour prefill";
    case TicketClass::KvCapacity: return "KV capacity";
    case TicketClass::WithinSlo: return "within SLO";
    case TicketClass::Inconsistent: return "inconsistent figures";
    case TicketClass::NotEnoughData: return "not enough data";
    }
    return "within SLO";
}

std::string Standup::text() const
{
    return "Symptom: " + symptom + "\nPhase: " + phase + "\nFloor we compared against: " + floor
           + "\nWhat is actually happening: " + happening + "\nChange we will try: " + change
           + "\nHow we will know in 30 minutes: " + verify + "\n";
}

namespace {

/** checkTriageInput() without the symptom: the figures alone and against each other. */
std::string checkFigures(const TriageInput& in)
{
    // Each figure alone: name = value: what it must be.
    struct Figure {
        const char* name;
        const std::optional<double>& value;
        double min;
        bool minExcluded;
        double max;
        const char* expected; // when below min (or not a number)
    };
    const Figure figures[] = {
        {"p95_ttft_ms", in.p95TtftMs, 0, true, 1e12, "expected a measured latency > 0"},
        {"p95_itl_ms", in.p95ItlMs, 0, true, 1e12, "expected a measured latency > 0"},
        {"queue_wait_ms", in.queueWaitMs, 0, false, 1e12, "expected a number >= 0"},
        {"prompt_tokens", in.promptTokens, 1, false, 1e9, "expected a number of tokens >= 1"},
        {"kv_memory_bytes", in.kvMemoryBytes, 0, false, 1e12, "expected a number >= 0"},
    };
    for (const Figure& f : figures) {
        if (!f.value)
            continue;
        const double v = *f.value;
        const std::string head = std::string(f.name) + " = " + messageNumber(v) + ": ";
        if (std::isnan(v) || v < f.min || (f.minExcluded && v <= f.min))
            return head + f.expected;
        if (v > f.max)
            return head + "expected at most " + messageNumber(f.max);
    }
    if (in.concurrency) {
        const double c = *in.concurrency;
        if (!(c >= 1 && c <= 1e7 && c == std::floor(c)))
            return "concurrency = " + messageNumber(c) + ": expected a whole number from 1 to 10,000,000";
    }
    if (in.gpuUtilization && !(*in.gpuUtilization >= 0 && *in.gpuUtilization <= 1))
        return "gpu_utilization = " + messageNumber(*in.gpuUtilization) + ": expected a fraction from 0 to 1";
    // The figures against each other.
    if (in.queueWaitMs && in.p95TtftMs && *in.queueWaitMs > *in.p95TtftMs)
        return "queue_wait_ms = " + messageNumber(*in.queueWaitMs) + " is longer than p95_ttft_ms = " + messageNumber(*in.p95TtftMs)
               + ": the queue wait is part of the time to first token, so one of them is wrong";
    return {};
}

} // namespace

std::string checkTriageInput(const TriageInput& in)
{
    if (const auto at = std::find_if(in.symptom.begin(), in.symptom.end(),
                                     [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
        at != in.symptom.end())
        return "symptom = \"" + printableText(in.symptom) + "\": must be one line without control characters (byte "
               + std::to_string(at - in.symptom.begin() + 1) + " is " + printableText(std::string(1, *at)) + ")";
    return checkFigures(in);
}

TriageResult triage(const Scenario& scenario, const TriageInput& in)
{
    TriageResult r;
    const double concurrency = std::max(1.0, in.concurrency.value_or(1.0));
    const double prompt = std::max(0.0, in.promptTokens.value_or(scenario.workload.promptTokens));

    // The floors, from the same cost model, at the ticket's concurrency and prompt.
    Scenario at = scenario;
    at.workload.promptTokens = int(std::min(prompt, 2e9));
    at.workload.contextTokens = at.workload.promptTokens;
    at.workload.batch = 1;
    const Evaluation one = evaluate(at);
    r.decodeFloorMs = one.decode.floorSecondsBatch1 * 1e3;
    r.prefillFloorMs = one.prefill.seconds * 1e3;
    r.kvBudgetBytes = one.capacity.kvBudgetBytes;
    const double stepOneMs = one.decode.stepSeconds * 1e3;
    r.expectedItlMs = stepSecondsAt(at, concurrency) * 1e3;
    const double batchingFactor = r.expectedItlMs / stepOneMs;

    const std::vector<double>& itlSlos = scenario.workload.itlSloMs;
    const double itlSlo = itlSlos.empty() ? 0.0 : *std::min_element(itlSlos.begin(), itlSlos.end());
    const double ttftSlo = scenario.workload.ttftSloMs;
    const bool ttftMissed = in.p95TtftMs && *in.p95TtftMs > ttftSlo;
    const bool itlMissed = in.p95ItlMs && itlSlo > 0 && *in.p95ItlMs > itlSlo;
    const double queueShare = (in.queueWaitMs && in.p95TtftMs && *in.p95TtftMs > 0) ? *in.queueWaitMs / *in.p95TtftMs : 0.0;
    // Figures that contradict each other, or the physics: no phase can be blamed on them. (A symptom with
    // control characters is not a figure: the standup shows it escaped.)
    const std::string inconsistent = checkFigures(in);
    const bool belowFloor = inconsistent.empty() && in.p95ItlMs && *in.p95ItlMs < r.decodeFloorMs;

    // Reasoning, in numbers, before the verdict.
    r.reasoning.push_back(fmt("Batch-1 decode floor: %.1f ms/token (W_read / BW = %s / %.2f TB/s).", r.decodeFloorMs,
                              gb(one.decode.weightBytes).c_str(), scenario.hardware.bandwidthBytesPerSecond / 1e12));
    if (itlSlo > 0)
        r.reasoning.push_back(fmt("The tightest ITL SLO, %s, is %.1fx that floor: %s at batch 1.", ms(itlSlo).c_str(),
                                  itlSlo / r.decodeFloorMs, itlSlo >= r.decodeFloorMs ? "physically possible" : "below the floor, impossible"));
    r.reasoning.push_back(fmt("Prefill floor for a %.0f-token prompt: %s (TTFT SLO %s).", prompt, ms(r.prefillFloorMs).c_str(),
                              ms(ttftSlo).c_str()));
    if (in.p95ItlMs)
        r.reasoning.push_back(fmt("P95 ITL %s is %.*fx the floor; the model expects %s at concurrency %.0f (%.2fx batch 1).",
                                  ms(*in.p95ItlMs).c_str(), *in.p95ItlMs / r.decodeFloorMs < 1 ? 2 : 1,
                                  *in.p95ItlMs / r.decodeFloorMs, ms(r.expectedItlMs).c_str(), concurrency, batchingFactor));
    if (in.p95TtftMs)
        r.reasoning.push_back(fmt("P95 TTFT %s is %.1fx the prefill floor%s.", ms(*in.p95TtftMs).c_str(),
                                  *in.p95TtftMs / std::max(r.prefillFloorMs, 1e-9),
                                  ttftMissed ? ", over its SLO" : ", within its SLO"));
    if (in.queueWaitMs && in.p95TtftMs && *in.p95TtftMs > 0 && queueShare <= 1)
        r.reasoning.push_back(fmt("Queue wait %s is %.0f %% of TTFT: queue wait is not model time.", ms(*in.queueWaitMs).c_str(),
                                  queueShare * 100));
    if (in.kvMemoryBytes)
        r.reasoning.push_back(fmt("KV in use %s against a KV budget of %s per GPU (HBM x %.2f - weights%s).",
                                  gb(*in.kvMemoryBytes).c_str(), gb(r.kvBudgetBytes).c_str(), scenario.serving.memoryUtilization,
                                  scenario.serving.activationReserveBytes > 0 ? " - activation reserve" : ""));

    std::string happening;
    std::string verify;
    if (!inconsistent.empty() || belowFloor) {
        r.ticketClass = TicketClass::Inconsistent;
        if (belowFloor)
            r.reasoning.push_back(fmt("P95 ITL %s is below the %.1f ms batch-1 decode floor (the weights read once per token at peak "
                                      "bandwidth): physically impossible on this scenario, so the measurement or the scenario is wrong.",
                                      ms(*in.p95ItlMs).c_str(), r.decodeFloorMs));
        else
            r.reasoning.push_back("The ticket's figures are inconsistent (" + inconsistent + "): no phase can be blamed on them.");
        r.metricToPlot = "Per-token timestamps of single requests, next to the scenario's model, weight dtype, GPUs and bandwidth";
        r.plausibleCause = belowFloor
            ? "A measurement that is not per token (wrong unit, several tokens per event, speculative tokens timed one by one), "
              "or a scenario that is not the deployment (a smaller or more quantised model, more GPUs, faster memory)."
            : "One of the figures is wrong: a different percentile, window or unit than the others.";
        r.fixesThatCanWork = {"Re-measure from per-token timestamps over the same window",
                              "Check the scenario's model, weight dtype, GPU count and bandwidth against the deployment"};
        r.fixesThatCannot = {"Any optimisation chosen from these figures (they do not describe one real system)"};
        happening = belowFloor ? fmt("The measured P95 ITL, %s, is faster than this scenario can decode (%.1f ms floor).",
                                     ms(*in.p95ItlMs).c_str(), r.decodeFloorMs)
                               : "The figures contradict each other: " + inconsistent + ".";
        verify = "Re-measured figures that agree with each other and sit at or above the floors.";
    } else if (in.outOfMemory) {
        r.ticketClass = TicketClass::KvCapacity;
        r.reasoning.push_back("Out-of-memory errors: OOM at long context is a KV problem until proven otherwise.");
        r.metricToPlot = "KV blocks (or bytes) in use against the budget over time, with the prompt length of each admission";
        r.plausibleCause = fmt("Long contexts: one %.0f-token request alone writes %s of KV; admission counts requests, not live tokens.",
                               prompt, gb(one.prefill.kvWrittenBytes).c_str());
        r.fixesThatCanWork = {"Admit by live tokens (KV blocks), not by request count", "Paged KV allocation with preemption",
                              "A hard cap on context length", "fp8 KV cache, or fewer KV heads (GQA)"};
        r.fixesThatCannot = {"torch.compile or a faster decode kernel (the memory is the same)",
                             "Halving the admission cap for everyone (taxes the traffic that never sends long prompts)"};
        happening = fmt("KV cache outgrows its %s budget when long-context requests arrive together%s.", gb(r.kvBudgetBytes).c_str(),
                        in.kvMemoryBytes ? (", reaching " + gb(*in.kvMemoryBytes)).c_str() : "");
        verify = "Zero OOMs over 30 minutes with KV use peaking below the budget on the blocks-in-use panel.";
    } else if (in.batchJobRunning && ttftMissed) {
        r.ticketClass = TicketClass::NoisyNeighbourPrefill;
        r.reasoning.push_back("A batch job shares the GPU and TTFT misses its SLO while ITL holds: its long prefills take the GPU from chat.");
        r.metricToPlot = "Chat TTFT over time with the batch job's prefill events marked";
        r.plausibleCause = "Long batch prompts prefilled unchunked hold the whole GPU; chat prefills queue behind them.";
        r.fixesThatCanWork = {"Chunked prefill with a per-step token budget", "A priority class or separate queue for interactive traffic",
                              "Isolate batch prefill on its own pool"};
        r.fixesThatCannot = {"Quantising the KV cache only (helps capacity, not the prefill collision)", "A faster decode kernel"};
        happening = "Batch-job prefills occupy the GPU; chat requests wait behind them for their own prefill.";
        verify = "Chat P95 TTFT back under " + ms(ttftSlo) + " while the batch job runs, batch throughput within 10 %.";
    } else if (queueShare >= 0.5 && (ttftMissed || itlMissed)) {
        r.ticketClass = TicketClass::Admission;
        r.metricToPlot = "TTFT split into queue wait and model time, and P95 TPOT against concurrent sequences";
        r.plausibleCause = fmt("More sequences admitted than the GPU can serve inside the SLOs: %.0f %% of TTFT is queueing.", queueShare * 100);
        r.fixesThatCanWork = {"Cap max_num_seqs at the goodput-optimal batch", "Admission on live tokens; reserve KV for interactive traffic",
                              "Separate pools for long and short requests"};
        r.fixesThatCannot = {"A fused GELU or FlashAttention (kernel time is not the queue)", "A faster prefill kernel alone"};
        happening = fmt("Requests queue for %s before prefill; at concurrency %.0f every step is slower for everyone.",
                        ms(in.queueWaitMs.value_or(0)).c_str(), concurrency);
        verify = "Queue wait under 20 % of TTFT and P95 TTFT under " + ms(ttftSlo) + " after the cap change.";
    } else if (itlMissed) {
        const double itl = *in.p95ItlMs;
        if (batchingFactor >= 1.25) {
            r.ticketClass = TicketClass::Admission;
            r.reasoning.push_back(fmt("At concurrency %.0f the batch itself adds %.0f %% to every step: not a pure decode ticket.",
                                      concurrency, (batchingFactor - 1) * 100));
            r.metricToPlot = "P95 TPOT against concurrent sequences (it should be close to affine)";
            r.plausibleCause = fmt("The batch has grown past its useful point: t_step(B) = %.2f + %.3f*B ms walked to the right.",
                                   one.decode.interceptSeconds * 1e3, one.decode.slopeSecondsPerSequence * 1e3);
            r.fixesThatCanWork = {"Cap max_num_seqs where the TPOT curve crosses the ITL budget",
                                  "fp8 KV or a shorter context limit (the per-sequence slope is the cache read)"};
            r.fixesThatCannot = {"A fused GELU (kernel micro-optimisation)", "Shortening the system prompt (that is TTFT)"};
            happening = fmt("Concurrency %.0f pushes each step to about %s; measured P95 ITL %s.", concurrency,
                            ms(r.expectedItlMs).c_str(), ms(itl).c_str());
            verify = "P95 ITL under " + ms(itlSlo) + " after capping concurrency, plotted against concurrent sequences.";
        } else {
            r.ticketClass = TicketClass::Decode;
            const double ratio = itl / r.expectedItlMs;
            r.metricToPlot = "ITL at concurrency 1 against the batch-1 decode floor";
            if (ratio >= 2) {
                r.reasoning.push_back(fmt("ITL is %.1fx what the bandwidth floor allows at this concurrency: not a kernel-speed or "
                                          "hardware problem first.", ratio));
                r.plausibleCause = "Host-side stalls: synchronisation, sampling on the CPU, launch-bound tiny kernels, "
                                   "or a measurement that includes prefill.";
                r.fixesThatCanWork = {"Capture the decode step in a CUDA/HIP graph", "Remove host synchronisation and CPU-side sampling",
                                      "Check the ITL measurement excludes prefill"};
                r.fixesThatCannot = {"Buying faster GPUs (the floor is already far below)", "Shortening the system prompt (that is TTFT)"};
            } else {
                r.reasoning.push_back("ITL is near the bandwidth floor: you do not get to 'optimise the kernel' as the first move.");
                r.plausibleCause = "The weight read itself: the model is too large for this bandwidth at this SLO.";
                r.fixesThatCanWork = {"Quantised weights (fp8 or int4)", "More HBM bandwidth (another GPU or tensor parallelism)",
                                      "Speculative decoding at low concurrency"};
                r.fixesThatCannot = {"Kernel tuning (the floor is the floor)", "Shortening the system prompt (that is TTFT)"};
            }
            happening = fmt("Each token takes %s at concurrency %.0f against a %.1f ms floor.", ms(itl).c_str(), concurrency, r.decodeFloorMs);
            verify = "P95 ITL at concurrency 1 within 1.5x of the " + fmt("%.1f ms", r.decodeFloorMs) + " floor on a steady stream.";
        }
    } else if (ttftMissed) {
        r.ticketClass = TicketClass::Prefill;
        r.reasoning.push_back(fmt("TTFT is %.0fx the prefill floor: not 'the matmul is slow' but queueing, prefill contention or a huge prompt.",
                                  *in.p95TtftMs / std::max(r.prefillFloorMs, 1e-9)));
        r.metricToPlot = "TTFT against prompt length";
        r.plausibleCause = "Long prompts, or unchunked prefills blocking each other.";
        r.fixesThatCanWork = {"Chunked prefill", "Prefix caching for shared system prompts", "Prompt-length limits", "More prefill compute"};
        r.fixesThatCannot = {"A faster decode kernel", "Quantising the KV cache"};
        happening = fmt("Prefill of %.0f-token prompts takes %s at P95 against a %s floor.", prompt, ms(*in.p95TtftMs).c_str(),
                        ms(r.prefillFloorMs).c_str());
        verify = "P95 TTFT under " + ms(ttftSlo) + " on the TTFT-against-prompt-length plot.";
    } else if (!in.p95TtftMs && !in.p95ItlMs) {
        // Nothing that could miss an SLO was measured: "within SLO" would be a claim without a figure.
        r.ticketClass = TicketClass::NotEnoughData;
        r.reasoning.push_back("No P95 TTFT and no P95 ITL measured: nothing to hold against the SLOs or the floors.");
        r.metricToPlot = "P95 TTFT and P95 ITL over the incident window, against their SLO lines";
        r.plausibleCause = "Unknown until measured: ask for the numbers that make it a ticket (TTFT, ITL, queue wait, OOM).";
        r.fixesThatCanWork = {"Measure P95 TTFT and P95 ITL (and the queue wait) for the slow requests first"};
        r.fixesThatCannot = {"Any optimisation without a measured symptom"};
        happening = "Not known yet: the ticket has no latency figure.";
        verify = "A P95 TTFT and a P95 ITL from the incident window, entered here.";
    } else {
        r.ticketClass = TicketClass::WithinSlo;
        r.reasoning.push_back("Every measured latency is within its SLO.");
        r.metricToPlot = "P95 TTFT and ITL against their SLO lines";
        r.plausibleCause = "None measured: ask for the numbers that make it a ticket (TTFT, ITL, queue wait, OOM).";
        r.fixesThatCanWork = {"Nothing to change yet"};
        r.fixesThatCannot = {"Any optimisation without a measured symptom"};
        happening = "Latencies are inside the SLOs; no phase is at fault.";
        verify = "Dashboards stay inside the SLO lines.";
    }

    Standup& st = r.standup;
    if (!in.symptom.empty())
        st.symptom = printableText(in.symptom, 0); // one line whatever the caller put in it
    else {
        std::string s;
        if (in.p95TtftMs)
            s += "P95 TTFT " + ms(*in.p95TtftMs) + " (SLO " + ms(ttftSlo) + ")";
        if (in.p95ItlMs)
            s += (s.empty() ? "" : ", ") + ("P95 ITL " + ms(*in.p95ItlMs)) + (itlSlo > 0 ? " (SLO " + ms(itlSlo) + ")" : "");
        if (in.outOfMemory)
            s += std::string(s.empty() ? "" : ", ") + "OOM errors";
        st.symptom = s.empty() ? "no measurement given" : s + fmt(" at concurrency %.0f", concurrency);
    }
    st.phase = ticketClassName(r.ticketClass);
    st.floor = fmt("%.1f ms/token batch-1 decode floor; %s prefill floor at %.0f tokens", r.decodeFloorMs, ms(r.prefillFloorMs).c_str(), prompt);
    st.happening = happening;
    st.change = r.fixesThatCanWork.empty() ? std::string() : r.fixesThatCanWork.front();
    st.verify = verify;
    return r;
}

std::string parseTriageInput(const QByteArray& json, TriageInput& out, QByteArray* scenarioJson)
{
    QJsonDocument doc;
    if (std::string e = parseJsonInput(json, doc); !e.empty())
        return e;
    if (!doc.isObject())
        return "expected a JSON object with the ticket's fields";
    TriageInput in;
    const QJsonObject o = doc.object();
    for (auto it = o.begin(); it != o.end(); ++it) {
        const std::string key = it.key().toStdString();
        const QJsonValue v = it.value();
        // Types here; values, alone and against each other, in checkTriageInput() below.
        auto number = [&](std::optional<double>& field) -> std::string {
            if (!v.isDouble())
                return printableText(key) + " = " + jsonValueText(v) + ": expected a number";
            field = v.toDouble();
            return {};
        };
        std::string err;
        if (key == "symptom") {
            if (!v.isString())
                return "symptom = " + jsonValueText(v) + ": expected a string";
            in.symptom = v.toString().toStdString();
        } else if (key == "p95_ttft_ms")
            err = number(in.p95TtftMs);
        else if (key == "p95_itl_ms")
            err = number(in.p95ItlMs);
        else if (key == "queue_wait_ms")
            err = number(in.queueWaitMs);
        else if (key == "concurrency")
            err = number(in.concurrency);
        else if (key == "prompt_tokens")
            err = number(in.promptTokens);
        else if (key == "kv_memory_bytes")
            err = number(in.kvMemoryBytes);
        else if (key == "gpu_utilization")
            err = number(in.gpuUtilization);
        else if (key == "error") {
            const std::string e = v.toString().toStdString();
            if (!v.isString() || (e != "oom" && e != "none"))
                return "error = " + jsonValueText(v) + ": expected \"oom\" or \"none\"";
            in.outOfMemory = e == "oom";
        } else if (key == "batch_job_running") {
            if (!v.isBool())
                return "batch_job_running = " + jsonValueText(v) + ": expected true or false";
            in.batchJobRunning = v.toBool();
        } else if (key == "scenario" && scenarioJson) {
            if (!v.isObject())
                return "scenario = " + jsonValueText(v) + ": expected an object of scenario keys";
            *scenarioJson = QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
        } else if (key == "title" || key == "note") {
            continue;
        } else {
            return "unknown field \"" + printableText(key) + "\" (expected symptom, p95_ttft_ms, p95_itl_ms, queue_wait_ms, concurrency, "
                   "prompt_tokens, kv_memory_bytes, gpu_utilization, error, batch_job_running, scenario)";
        }
        if (!err.empty())
            return err;
    }
    if (std::string err = checkTriageInput(in); !err.empty())
        return err;
    out = std::move(in);
    return {};
}

} // namespace ridgeline::model
