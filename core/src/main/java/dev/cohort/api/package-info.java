/**
 * The application API: what a computation is written against, and all an application sees.
 *
 * <p>A {@link dev.cohort.api.Computation} is a function from a {@link dev.cohort.api.Numeric}
 * builder to a {@link dev.cohort.api.Deferred} result. The builder records gates on {@link
 * dev.cohort.api.Secret}s and {@link dev.cohort.api.SecretVector}s and returns at once; the engine
 * evaluates them later, and {@link dev.cohort.api.Numeric#seq} steps act on opened values. The same
 * computation runs unchanged on every suite.
 *
 * <p>Invariant: nothing here exposes shares, fields, suites or the network (the layering test keeps
 * this package free of every other Cohort package). The unchecked exceptions a user can act on live
 * here too: {@link dev.cohort.api.AbortException} (a check failed, a peer misbehaved) and {@link
 * dev.cohort.api.NetworkException} (a peer went away), both under {@link
 * dev.cohort.api.CohortException}; their messages never carry shares, keys, inputs or outputs.
 */
package dev.cohort.api;
