package dev.cohort.cli;

/**
 * What one run of the distance-average demo measured, at one setting of a sweep. Time per session
 * counts the sessions only, not generating keys or connecting; bytes and frames are the mean over
 * every (party, peer) pair.
 */
record SweepRun(
    long sessions,
    double wallSeconds,
    double millisPerSession,
    long rounds,
    double bytesPerPeer,
    double framesPerPeer,
    long peakHeapBytes,
    double cpuSeconds) {}
