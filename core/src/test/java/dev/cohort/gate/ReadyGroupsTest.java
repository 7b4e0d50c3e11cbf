package dev.cohort.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How ready interactive gates are grouped into batches: every party must take the same groups in
 * the same order, so the order is pinned here gate by gate.
 */
class ReadyGroupsTest {

  /** A scope that ignores its children: these gates are grouped, never run. */
  private final Scope scope =
      new Scope() {
        @Override
        public void childStarted() {}

        @Override
        public void childFinished(Graph graph) {}

        @Override
        public int session() {
          return -1;
        }
      };

  /** An input gate of {@code owner} over {@code length} elements, named by its length. */
  private InteractiveGate input(int owner, int length) {
    return new InteractiveGate.Input(scope, owner, 32, null, length);
  }

  private InteractiveGate open(int receiver, int length) {
    return new Opened<>(scope, new VectorValue(length), null, Opened.Form.LONGS, 0, receiver, 0);
  }

  /** The taken groups as lists of gates, checking each group's size and elements. */
  private static List<List<InteractiveGate>> taken(ReadyGroups ready, int groups) {
    List<List<InteractiveGate>> all = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      List<InteractiveGate> group = new ArrayList<>();
      int elements = 0;
      for (InteractiveGate gate = ready.head(g); gate != null; gate = gate.next) {
        group.add(gate);
        elements += gate.length;
      }
      assertEquals(group.size(), ready.size(g));
      assertEquals(elements, ready.elements(g));
      all.add(group);
    }
    return all;
  }

  @Test
  void take_allFit_groupsInOrderOfFirstReadyGateAndGatesInReadyOrder() {
    ReadyGroups ready = new ReadyGroups();
    InteractiveGate a0 = input(0, 1);
    InteractiveGate b1 = input(1, 2);
    InteractiveGate c0 = open(0, 3);
    InteractiveGate d0 = input(0, 4);
    InteractiveGate e2 = input(2, 5);
    InteractiveGate f1 = input(1, 6);
    InteractiveGate g0 = open(0, 7);
    InteractiveGate h = open(-1, 8);
    for (InteractiveGate gate : List.of(a0, b1, c0, d0, e2, f1, g0, h)) {
      ready.add(gate);
    }

    int groups = ready.take(1000, true);

    assertEquals(
        List.of(List.of(a0, d0), List.of(b1, f1), List.of(c0, g0), List.of(e2), List.of(h)),
        taken(ready, groups));
    assertTrue(ready.isEmpty());
  }

  @Test
  void take_budgetSplitsTheReadyGates_takesThePrefixInReadyOrderAndKeepsTheRest() {
    ReadyGroups ready = new ReadyGroups();
    InteractiveGate a0 = input(0, 10);
    InteractiveGate b1 = input(1, 20);
    InteractiveGate c0 = input(0, 30);
    InteractiveGate d1 = input(1, 5); // fits, but comes after c0, which does not
    InteractiveGate e0 = input(0, 1);
    for (InteractiveGate gate : List.of(a0, b1, c0, d1, e0)) {
      ready.add(gate);
    }

    int groups = ready.take(50, true);

    assertEquals(List.of(List.of(a0), List.of(b1)), taken(ready, groups));
    assertFalse(ready.isEmpty());
    InteractiveGate f1 = input(1, 2); // made ready meanwhile: after the gates left over
    ready.add(f1);
    groups = ready.take(1000, false);
    assertEquals(List.of(List.of(c0, e0), List.of(d1, f1)), taken(ready, groups));
    assertTrue(ready.isEmpty());
  }

  @Test
  void take_gateLargerThanBudget_runsAloneOnlyWhenNothingIsInFlight() {
    ReadyGroups ready = new ReadyGroups();
    InteractiveGate large = input(0, 250);
    InteractiveGate small = input(0, 1);
    ready.add(large);
    ready.add(small);

    assertEquals(0, ready.take(100, false));
    int groups = ready.take(100, true);

    assertEquals(List.of(List.of(large)), taken(ready, groups));
    groups = ready.take(100, false);
    assertEquals(List.of(List.of(small)), taken(ready, groups));
  }

  @Test
  void take_manyKinds_groupsGrowBeyondTheirFirstArrays() {
    ReadyGroups ready = new ReadyGroups();
    List<List<InteractiveGate>> want = new ArrayList<>();
    for (int owner = 0; owner < 20; owner++) {
      want.add(new ArrayList<>());
    }
    for (int i = 0; i < 100; i++) {
      InteractiveGate gate = input((i * 7) % 20, 1 + i % 3);
      ready.add(gate);
      want.get((i * 7) % 20).add(gate);
    }
    List<List<InteractiveGate>> inOrderOfFirstGate = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      inOrderOfFirstGate.add(want.get((i * 7) % 20));
    }

    assertEquals(inOrderOfFirstGate, taken(ready, ready.take(1000, true)));
  }
}
