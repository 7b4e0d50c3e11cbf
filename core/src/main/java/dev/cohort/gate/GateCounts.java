package dev.cohort.gate;

import java.util.LinkedHashMap;
import java.util.Map;

/** How many gates of each kind a run evaluated, and over how many elements. */
public final class GateCounts {

  private final long[] gates = new long[InteractiveGate.Kind.values().length];
  private final long[] elements = new long[InteractiveGate.Kind.values().length];
  private final long[] batches = new long[InteractiveGate.Kind.values().length];
  private long localGates;

  void interactive(InteractiveGate.Kind kind, int gateCount, int elementCount) {
    gates[kind.ordinal()] += gateCount;
    elements[kind.ordinal()] += elementCount;
    batches[kind.ordinal()]++;
  }

  void local() {
    localGates++;
  }

  public long localGates() {
    return localGates;
  }

  /** Gates by kind name ({@code input}, {@code multiply}, ...), kinds with none left out. */
  public Map<String, Long> gatesByKind() {
    return byKind(gates);
  }

  /** Elements (secrets) by kind name. */
  public Map<String, Long> elementsByKind() {
    return byKind(elements);
  }

  /** Suite protocol runs by kind name: how many batches the gates were grouped into. */
  public Map<String, Long> batchesByKind() {
    return byKind(batches);
  }

  private static Map<String, Long> byKind(long[] counts) {
    Map<String, Long> m = new LinkedHashMap<>();
    for (InteractiveGate.Kind k : InteractiveGate.Kind.values()) {
      if (counts[k.ordinal()] != 0) {
        m.put(k.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'), counts[k.ordinal()]);
      }
    }
    return m;
  }
}
