package dev.cohort.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admission rules on their own, for P1 of 4: each rule refuses with its message, in the order
 * the transports rely on, and a refused hello never takes a peer's slot.
 */
class PeerAdmissionTest {

  private final PeerAdmission admission = new PeerAdmission(1, 4);
  private final List<Integer> taken = new ArrayList<>();

  /** Takes a slot once; a second take of the same party is "already connected". */
  private final IntPredicate slots =
      party -> {
        if (taken.contains(party)) {
          return false;
        }
        taken.add(party);
        return true;
      };

  @Test
  void admit_eachRuleRefusesWithItsMessageAndTakesNoSlot() {
    assertEquals("claims party id 4, not a peer of P1", admission.admit(4, -1, null, null, slots));
    assertEquals("claims party id 1, not a peer of P1", admission.admit(1, -1, null, null, slots));
    assertEquals(
        "answered as P3 at the address of P2 (host:7002)",
        admission.admit(3, 2, "P2 (host:7002)", null, slots));
    assertEquals(
        "P2 dialed P1, but only a lower id dials a higher one",
        admission.admit(2, -1, null, null, slots));
    assertEquals(List.of(), taken, "no refused hello took a slot");
  }

  @Test
  void admit_certificateForAnotherParty_isRefusedBeforeTheSlot(@TempDir Path keys) {
    TestKeys deployment = TestKeys.generate(keys, 4);
    assertEquals(
        "claims to be P0 but its certificate is for CN=cohort-party-3",
        admission.admit(0, -1, null, deployment.identity(3).certificate(), slots));
    assertNull(admission.admit(0, -1, null, deployment.identity(0).certificate(), slots));
    assertEquals(List.of(0), taken);
  }

  @Test
  void admit_secondConnectionOfAPeer_isAlreadyConnected() {
    assertNull(admission.admit(0, -1, null, null, slots));
    assertNull(admission.admit(2, 2, "P2", null, slots));
    assertEquals("P0 is already connected", admission.admit(0, -1, null, null, slots));
    assertEquals(List.of(0, 2), taken);
  }

  @Test
  void blameMismatch_helloClaimsAParty_blamesItOnly() {
    PeerAdmission p2 = new PeerAdmission(2, 4);
    List<String> blamed = new ArrayList<>();
    InetSocketAddress from = new InetSocketAddress("10.0.0.1", 40000);
    p2.blameMismatch(from, 3, "speaks X", p -> true, (p, kept) -> blamed.add(p + " " + kept));
    p2.blameMismatch(from, 2, "speaks X", p -> true, (p, kept) -> blamed.add("self")); // nobody
    p2.blameMismatch(from, 9, "speaks X", p -> true, (p, kept) -> blamed.add("none")); // no party
    assertEquals(List.of("3 refused /10.0.0.1:40000: speaks X"), blamed);
  }

  /** Addresses of P3 of 4: P0 missing on 10.0.0.1, P1 missing elsewhere, P2 connected. */
  private static final List<InetSocketAddress> LISTED =
      List.of(
          new InetSocketAddress("10.0.0.1", 7000),
          new InetSocketAddress("10.0.0.2", 7001),
          new InetSocketAddress("10.0.0.1", 7002),
          new InetSocketAddress("10.0.0.1", 7003));

  @Test
  void blameMismatch_nothingReadable_blamesTheMissingLowerPeersOnThatHost() {
    PeerAdmission p3 = new PeerAdmission(3, 4);
    List<Integer> blamed = new ArrayList<>();
    p3.listed(LISTED, p -> p != 2, (p, kept) -> blamed.add(p));
    p3.blameMismatch(
        new InetSocketAddress("10.0.0.1", 40000),
        -1,
        "speaks X",
        p -> p != 2,
        (p, kept) -> blamed.add(p));
    assertEquals(List.of(0), blamed);
  }

  /**
   * A peer may dial, and be refused, before this party has called connect: the refusal is held and
   * blamed once the addresses are known, and only the last few such refusals are held.
   */
  @Test
  void blameMismatch_beforeTheAddressesAreKnown_isHeldAndBlamedWhenTheyCome() {
    PeerAdmission p3 = new PeerAdmission(3, 4);
    List<String> blamed = new ArrayList<>();
    int sent = PeerAdmission.HELD_UNLISTED + 3;
    for (int i = 0; i < sent; i++) {
      p3.blameMismatch(
          new InetSocketAddress("10.0.0.1", 40000 + i),
          -1,
          "speaks X",
          p -> true,
          (p, kept) -> blamed.add("early"));
    }
    assertEquals(List.of(), blamed, "nobody is blamed before the addresses are known");
    p3.listed(LISTED, p -> p != 2, (p, kept) -> blamed.add(p + " " + kept));
    List<String> expected = new ArrayList<>();
    for (int i = sent - PeerAdmission.HELD_UNLISTED; i < sent; i++) {
      expected.add("0 refused /10.0.0.1:" + (40000 + i) + ": speaks X");
    }
    assertEquals(expected, blamed);
  }

  @Test
  void checkConnect_twoPartiesAtOneAddress_isRefusedNamingBoth() {
    List<InetSocketAddress> addresses =
        List.of(
            new InetSocketAddress("127.0.0.1", 7000),
            new InetSocketAddress("127.0.0.1", 7001),
            new InetSocketAddress("127.0.0.1", 7002),
            new InetSocketAddress("127.0.0.1", 7000));
    assertEquals(
        "P0 and P3 have the same address, 127.0.0.1:7000: every party needs a host:port of its own",
        assertThrows(IllegalArgumentException.class, () -> admission.checkConnect(false, addresses))
            .getMessage());
    admission.checkConnect( // the same host on other ports, or the same port on other hosts: fine
        false,
        List.of(
            new InetSocketAddress("127.0.0.1", 7000),
            new InetSocketAddress("127.0.0.1", 7001),
            new InetSocketAddress("127.0.0.2", 7001),
            new InetSocketAddress("127.0.0.1", 7003)));
  }

  @Test
  void constructor_badPartiesOrIndex_isRejected() {
    assertEquals(
        "parties (1) must be >= 2",
        assertThrows(IllegalArgumentException.class, () -> new PeerAdmission(0, 1)).getMessage());
    assertEquals(
        "party index (3) must be in [0, 3)",
        assertThrows(IllegalArgumentException.class, () -> new PeerAdmission(3, 3)).getMessage());
  }
}
