/**
 * Metrics of a running process and the HTTP endpoint that exposes them to Prometheus (or anything
 * that reads its text format).
 *
 * <p>{@link dev.cohort.metrics.MetricsRegistry} holds counters ({@link dev.cohort.metrics.Counter},
 * one per label value in a {@link dev.cohort.metrics.LabelledCounter}), gauges read from a {@code
 * LongSupplier} at each scrape, and summaries ({@link dev.cohort.metrics.Summary}: sum, count and
 * the last observation, for round times and the like). Updates are {@code LongAdder}s and never
 * lock, so code on a hot path may count. {@link dev.cohort.metrics.MetricsServer} serves {@code GET
 * /metrics} (text format 0.0.4, every name prefixed {@code cohort_}) and {@code GET /health} over
 * Netty's HTTP codec, on an event loop of its own.
 *
 * <p>Why Netty's codec rather than the JDK's {@code com.sun.net.httpserver}: the module already
 * runs on Netty, and the codec gives the same event-loop model, limits and leak checking as the
 * transports, with no thread pool of its own to size. The format's rules (names, escaping, numbers)
 * live in one class, {@code PrometheusText}.
 *
 * <p>References: Prometheus, "Exposition formats", text-based format version 0.0.4
 * (prometheus.io/docs/instrumenting/exposition_formats).
 */
package dev.cohort.metrics;
