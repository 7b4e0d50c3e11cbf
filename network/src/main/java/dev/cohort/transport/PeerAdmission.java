package dev.cohort.transport;

import dev.cohort.api.PartyId;
import dev.cohort.transport.tls.Certificates;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.security.cert.X509Certificate;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The rules that decide which party a connection may belong to, for both transports, with the
 * messages operators and tests rely on. A party is one of {@code parties}; the lower id of a pair
 * dials the higher one; every connection opens with a hello naming the sender's id, and the hello
 * is admitted only if the TLS certificate (when there is one) is not an input client's, the id is a
 * peer's, a dialed peer answers as the party dialed, an accepting party hears only from lower ids,
 * the certificate is for that id, and the peer is not connected already.
 *
 * <p>Invariant: at most one connection per peer is ever admitted, and only after every other rule
 * has passed, so a refused hello never takes a peer's slot.
 */
public final class PeerAdmission {

  /** How many refused connections of unknown origin are held until the addresses are known. */
  static final int HELD_UNLISTED = 16;

  private final int self;
  private final int parties;
  private final ArrayDeque<Unlisted> unlisted = new ArrayDeque<>();
  private List<InetSocketAddress> listed; // guarded by this; null until connect

  /** The rules for party {@code self} of {@code parties}. */
  public PeerAdmission(int self, int parties) {
    if (parties < 2) {
      throw new IllegalArgumentException("parties (" + parties + ") must be >= 2");
    }
    if (self < 0 || self >= parties) {
      throw new IllegalArgumentException(
          "party index (" + self + ") must be in [0, " + parties + ")");
    }
    this.self = self;
    this.parties = parties;
  }

  /** Refuses TLS material (a certificate) that is not this party's. */
  public void checkIdentity(TransportOptions options) {
    if (options.tls() != null && options.tls().party() != self) {
      throw new IllegalArgumentException(
          "the TLS certificate is for "
              + Certificates.commonNameOf(options.tls().certificate())
              + ", not for "
              + Certificates.commonName(self));
    }
  }

  /**
   * Refuses a second {@code connect}, addresses that do not list every party, and two parties at
   * the same host and port (a party there would dial itself, or the other could never listen).
   */
  public void checkConnect(boolean connecting, List<InetSocketAddress> addresses) {
    if (connecting) {
      throw new IllegalStateException(PartyId.of(self) + " has connected already");
    }
    if (addresses.size() != parties) {
      throw new IllegalArgumentException(
          "addresses (" + addresses.size() + ") must list all " + parties + " parties");
    }
    for (int p = 0; p < parties; p++) {
      for (int q = p + 1; q < parties; q++) {
        if (sameEndpoint(addresses.get(p), addresses.get(q))) {
          InetSocketAddress a = addresses.get(q);
          throw new IllegalArgumentException(
              PartyId.of(p)
                  + " and "
                  + PartyId.of(q)
                  + " have the same address, "
                  + a.getHostString()
                  + ":"
                  + a.getPort()
                  + ": every party needs a host:port of its own");
        }
      }
    }
  }

  /** Same port, and the same host by name or by resolved address ("localhost" is 127.0.0.1). */
  private static boolean sameEndpoint(InetSocketAddress a, InetSocketAddress b) {
    if (a == null || b == null || a.getPort() != b.getPort()) {
      return false;
    }
    if (a.getHostString().equalsIgnoreCase(b.getHostString())) {
      return true;
    }
    return a.getAddress() != null && a.getAddress().equals(b.getAddress());
  }

  /** True when {@code party} is a valid id of this deployment (this party's own included). */
  public boolean inRange(int party) {
    return party >= 0 && party < parties;
  }

  /**
   * Why a hello claiming party {@code claimed} is refused, or null when the connection now belongs
   * to that party. {@code dialed} is the party this side dialed (named {@code dialedName}), or -1
   * on an accepted connection; {@code certificate} is the one the peer proved in the TLS handshake,
   * null without TLS. {@code takeSlot} is asked last, only when every other rule passed: it takes
   * the claimed party's slot and answers false when that party is connected (or connecting)
   * already.
   */
  public String admit(
      int claimed,
      int dialed,
      String dialedName,
      X509Certificate certificate,
      IntPredicate takeSlot) {
    if (certificate != null && Certificates.clientOf(certificate) >= 0) {
      return "presented an input client's certificate (CN="
          + Certificates.commonNameOf(certificate)
          + "): clients connect to a party's client link, never to the mesh";
    }
    if (claimed < 0 || claimed >= parties || claimed == self) {
      return "claims party id " + claimed + ", not a peer of " + PartyId.of(self);
    }
    PartyId party = PartyId.of(claimed);
    if (dialed >= 0 && claimed != dialed) {
      return "answered as " + party + " at the address of " + dialedName;
    }
    if (dialed < 0 && claimed > self) {
      return party + " dialed " + PartyId.of(self) + ", but only a lower id dials a higher one";
    }
    if (certificate != null && Certificates.partyOf(certificate) != claimed) {
      return "claims to be "
          + party
          + " but its certificate is for CN="
          + Certificates.commonNameOf(certificate);
    }
    if (!takeSlot.test(claimed)) {
      return party + " is already connected";
    }
    return null;
  }

  /**
   * Keeps the reason an accepted connection from {@code from} was refused for speaking the other
   * protocol ({@link ProtocolMismatch}) for the "did not connect" error of the peers it may have
   * come from, through {@code blame}: the party its hello claims ({@code claimed}), or, when it
   * said nothing this party can read ({@code claimed} -1: TLS bytes to a plaintext party), every
   * lower peer still {@code missing} whose address is on the host the connection came from. Before
   * {@link #listed} has given the addresses, such a connection is held (the last {@value
   * #HELD_UNLISTED} of them) and blamed when they come, since a peer may dial before this party
   * calls {@code connect}. Such a connection never ends {@code connect}: its bytes are
   * unauthenticated, and a stranger must not make a party give up on a real peer; only a dialer,
   * which reached the address of the peer, gives up at once.
   */
  public synchronized void blameMismatch(
      SocketAddress from, int claimed, String reason, IntPredicate missing, Blame blame) {
    String kept = refusedFrom(from, reason);
    if (claimed >= 0) {
      if (inRange(claimed) && claimed != self) {
        blame.keep(claimed, kept);
      }
      return;
    }
    if (listed == null) {
      if (unlisted.size() == HELD_UNLISTED) {
        unlisted.removeFirst();
      }
      unlisted.addLast(new Unlisted(from, kept));
      return;
    }
    blameHost(from, kept, missing, blame);
  }

  /**
   * The parties' addresses, from {@code connect}: mismatched connections held until now are blamed
   * on the missing lower peers of their host.
   */
  public synchronized void listed(
      List<InetSocketAddress> addresses, IntPredicate missing, Blame blame) {
    listed = List.copyOf(addresses);
    while (!unlisted.isEmpty()) {
      Unlisted held = unlisted.removeFirst();
      blameHost(held.from(), held.kept(), missing, blame);
    }
  }

  private void blameHost(SocketAddress from, String kept, IntPredicate missing, Blame blame) {
    InetAddress host = from instanceof InetSocketAddress a ? a.getAddress() : null;
    for (int p = 0; p < self && host != null; p++) {
      InetAddress address = listed.get(p).getAddress();
      if (missing.test(p) && host.equals(address)) {
        blame.keep(p, kept);
      }
    }
  }

  /** Where {@link #blameMismatch} keeps a refusal: the "did not connect" error of a party. */
  @FunctionalInterface
  public interface Blame {
    /** Keeps {@code refusal} as the last error of {@code party}. */
    void keep(int party, String refusal);
  }

  private record Unlisted(SocketAddress from, String kept) {}

  /**
   * What is kept for the "did not connect" error of a party whose accepted connection from {@code
   * from} was refused, so that an operator sees why the party was turned away.
   */
  public static String refusedFrom(Object from, String refusal) {
    return "refused " + from + ": " + refusal;
  }
}
