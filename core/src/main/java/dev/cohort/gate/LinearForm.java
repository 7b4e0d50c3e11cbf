package dev.cohort.gate;

/**
 * The form of a linear gate ({@link Gates#linear}): term t reads input {@code input[t]} from
 * element {@code offsets[t]} on, with {@code coefficients[t]} (null: all ones); {@code constants}
 * (packed public elements, or null) are added. The arrays are the caller's, checked and not copied.
 */
public record LinearForm(int[] input, int[] offsets, long[][] coefficients, long[] constants) {}
