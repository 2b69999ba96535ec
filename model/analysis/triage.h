// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <QByteArray>

#include "model/cost/scenario.h"

namespace ridgeline::model {

/** What an on-call engineer sees (seed 000's tickets B1-B5). Milliseconds and bytes; unset = not measured. */
struct TriageInput {
    std::string symptom;                 ///< the ticket in the user's words, e.g. "it types slow"
    std::optional<double> p95TtftMs;     ///< P95 time to first token
    std::optional<double> p95ItlMs;      ///< P95 inter-token latency
    std::optional<double> queueWaitMs;   ///< P95 (or typical) queue wait inside that TTFT
    std::optional<double> concurrency;   ///< sequences being served together
    std::optional<double> promptTokens;  ///< typical prompt length of the slow requests
    std::optional<double> kvMemoryBytes; ///< KV cache memory in use
    std::optional<double> gpuUtilization; ///< fraction 0..1 as the utilisation counter reports it
    bool outOfMemory = false;            ///< errors are CUDA/HIP out-of-memory
    bool batchJobRunning = false;        ///< a batch (offline) job shares the GPU
};

/**
 * The phase a ticket belongs to (seed 000, "Acceptance" 3). Inconsistent: the figures contradict each
 * other or the scenario's physics (an ITL below the batch-1 decode floor, a queue wait longer than the
 * TTFT it is part of), so no phase can be blamed until the measurement or the scenario is fixed.
 * NotEnoughData: nothing that can miss an SLO was measured (no P95 TTFT, no P95 ITL, no OOM), so the
 * ticket can be neither blamed on a phase nor called within SLO.
 */
enum class TicketClass { Prefill, Decode, Admission, NoisyNeighbourPrefill, KvCapacity, WithinSlo, Inconsistent, NotEnoughData };

/**
 * Stable id used in JSON ("prefill", "decode", "admission", "noisy_neighbour_prefill", "kv_capacity", "within_slo",
 * "inconsistent", "not_enough_data").
 */
std::string ticketClassId(TicketClass c);
/** Name for people ("prefill / TTFT", "decode", "admission / concurrency", ...). */
std::string ticketClassName(TicketClass c);

/** The six-line standup (seed 000, Part C). */
struct Standup {
    std::string symptom, phase, floor, happening, change, verify;
    /** "Symptom: ...\nPhase: ...\n..." ready to paste. */
    std::string text() const;
};

/** Classification with its reasoning in numbers, following the seed's rules. */
struct TriageResult {
    TicketClass ticketClass = TicketClass::WithinSlo;
    std::vector<std::string> reasoning;   ///< each step with the figures compared
    std::string metricToPlot;
    std::string plausibleCause;
    std::vector<std::string> fixesThatCanWork;
    std::vector<std::string> fixesThatCannot;
    Standup standup;
    // The floors compared against (current scenario).
    double decodeFloorMs = 0;             ///< batch-1 decode floor W / BW
    double expectedItlMs = 0;             ///< t_step at the measured concurrency (S = prompt)
    double prefillFloorMs = 0;            ///< t_pre at the measured prompt
    double kvBudgetBytes = 0;             ///< per GPU
};

/**
 * Checks the figures of a ticket, alone and against each other; returns "" or one line naming the field
 * and its value, e.g. "concurrency = 2.5: expected a whole number from 1 to 10,000,000" or
 * "queue_wait_ms = 5000 is longer than p95_ttft_ms = 1800: ...". Latencies and sizes are >= 0 and at most
 * 1e12, p95_ttft_ms and p95_itl_ms > 0, prompt_tokens from 1 to 1e9, gpu_utilization a fraction, the
 * queue wait at most the P95 TTFT, and the symptom one line (no control characters).
 */
std::string checkTriageInput(const TriageInput& input);

/**
 * Classifies a ticket against the floors of @p scenario (which must be valid), in this order:
 * figures that checkTriageInput() refuses (the symptom aside: it is shown escaped), or a P95 ITL
 * below the batch-1 decode floor (physically impossible) -> inconsistent; out-of-memory -> KV capacity
 * ("OOM at long context is a KV problem until proven otherwise");
 * a batch job running while TTFT misses its SLO -> noisy-neighbour prefill; queue wait at least
 * half of TTFT -> admission ("queue wait is not model time"); ITL over its SLO -> decode when
 * batching explains little of it (t_step at the concurrency < 1.25 x t_step(1)), else admission /
 * concurrency; TTFT over its SLO -> prefill; no P95 TTFT and no P95 ITL measured -> not enough data;
 * otherwise within SLO. ITL is judged against the
 * tightest ITL SLO line, TTFT against workload.ttft_slo_ms. Source: seeds 000 and 001.
 */
TriageResult triage(const Scenario& scenario, const TriageInput& input);

/**
 * Reads a ticket from JSON: {"symptom", "p95_ttft_ms", "p95_itl_ms", "queue_wait_ms", "concurrency",
 * "prompt_tokens", "kv_memory_bytes", "gpu_utilization", "error": "oom"|"none", "batch_job_running"}.
 * Every field is optional; unknown fields, wrong types and values checkTriageInput() refuses are errors
 * naming the field and the value. Returns "" on success.
 */
std::string parseTriageInput(const QByteArray& json, TriageInput& out, QByteArray* scenarioJson = nullptr);

} // namespace ridgeline::model
