package dev.cohort.spdz;

import dev.cohort.field.Field;
import dev.cohort.parallel.Workers;
import dev.cohort.random.Prg;
import dev.cohort.spdz.SpdzPreprocessing.InputMasks;
import dev.cohort.spdz.SpdzPreprocessing.Triples;
import dev.cohort.suite.AllOf;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.SessionGroups;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import java.util.List;

/**
 * The SPDZ online phase [DPSZ12, DKL+13]: additive sharing with information-theoretic MACs among n
 * ≥ 2 parties, secure with abort against any number of actively corrupt parties, given correct
 * preprocessing. Linear operations are local; multiplication (Beaver) and opening take one round
 * each; an input declared k-bit is in range by construction ({@link SpdzRangeInput}: its k bits are
 * input with k preprocessed input bits, one round); random elements and bits come from
 * preprocessing and take none.
 *
 * <p>Every opened value is remembered with this party's MAC share, and every input broadcast is
 * hashed. A {@link MacCheck} (three rounds, whatever the number of values) covers them all before
 * results leave the engine, and at the next round boundary once {@link SpdzConfig#checkEvery()}
 * values are unchecked. Set-up (one round, once per engine) commits to the first check's seed.
 *
 * <p><b>Check, then open</b> [DPSZ12, DKL+13]: only Beaver's d and e and input broadcasts are
 * masked by fresh uniform elements or bits, so only they are checked lazily; every {@link #open}
 * sends this party's shares only once a MAC check covering everything recorded before it started
 * has passed here. The rule, its invariant and its cost in rounds are described, and enforced, in
 * {@link CheckLedger}; the engine asks {@link #check} for a check at every round boundary.
 *
 * <p>The suite binds the gates; it keeps no state of its own beyond what it hands them. Each gate
 * gets its preprocessed material and the collaborators it uses, never the suite: {@link
 * SpdzSharing} (local operations with α_i), {@link ShareExchange} (elements to and from the peers,
 * summed and checked canonical), {@link ColumnPool} (reused columns) and {@link CheckLedger} (what
 * the checks must cover, and when an opening may send).
 */
public final class SpdzSuite implements Suite {

  private final Field field;
  private final int party;
  private final int parties;
  private final SpdzPreprocessing preprocessing;
  private final long[] macKeyShare;
  private final SpdzSharing sharing;
  private final ShareExchange exchange;
  private final ColumnPool pool;
  private final CheckLedger ledger;

  private SpdzSuite(
      SpdzConfig config, int party, int parties, Prg prg, SpdzPreprocessing preprocessing) {
    this.field = config.field();
    this.party = party;
    this.parties = parties;
    this.preprocessing = preprocessing;
    this.macKeyShare = preprocessing.macKeyShare();
    this.sharing = new SpdzSharing(field, party, macKeyShare);
    this.exchange = new ShareExchange(field, party, parties, Workers.of(config.threads()));
    this.pool = new ColumnPool(field.words());
    this.ledger = new CheckLedger(config, party, parties, prg, pool);
  }

  /**
   * SPDZ over {@code field} with the in-process dealer seeded with {@code insecureDealerSeed}:
   * INSECURE, anyone who knows the seed knows every secret ({@link SpdzConfig#insecureDealer}). For
   * tests and benchmarks; runs whose secrets matter use {@link #factory(SpdzConfig)} with {@link
   * SpdzConfig#dealerFiles}.
   */
  public static SuiteFactory insecureFactory(Field field, long insecureDealerSeed) {
    return factory(SpdzConfig.insecureDealer(field, insecureDealerSeed));
  }

  /**
   * SPDZ under {@code config}: its field, its preprocessing and when MAC checks run. With {@link
   * SpdzConfig#dealerFiles} for runs whose secrets matter.
   *
   * <p>Runs in groups of sessions ({@code EngineConfig.withGroups}): an engine's suites share one
   * source of the party's preprocessing, opened once, which each run in groups cuts into disjoint
   * slices, the same at every party ({@link SlicedPreprocessing}); they share the MAC key and the
   * MAC-check marks.
   */
  public static SuiteFactory factory(SpdzConfig config) {
    return factory(config, null);
  }

  /**
   * The factory of {@code config}'s suites; with {@code shared} non-null, their preprocessing is
   * the view of {@code shared} that {@code view} picks (an engine's suites in groups).
   */
  private static SuiteFactory factory(SpdzConfig config, Shared shared) {
    return new SuiteFactory() {
      @Override
      public String name() {
        return "spdz("
            + config.field().name()
            + ", "
            + config.description()
            + (config.threads() > 1 ? ", threads=" + config.threads() : "")
            + ")";
      }

      @Override
      public Field field() {
        return config.field();
      }

      @Override
      public void validate(int parties) {
        if (parties < 2) {
          throw new IllegalArgumentException("SPDZ needs at least 2 parties, got " + parties);
        }
        if (parties > 1000) {
          throw new IllegalArgumentException("parties (" + parties + ") must be <= 1000");
        }
      }

      @Override
      public Suite create(int party, int parties, Prg prg) {
        validate(parties);
        if (party < 0 || party >= parties) {
          throw new IllegalArgumentException(
              "party (" + party + ") must be in [0, " + parties + ")");
        }
        SpdzPreprocessing preprocessing =
            shared == null
                ? config.preprocessing().open(config.field(), party, parties)
                : shared.view(party, parties);
        return new SpdzSuite(config, party, parties, prg, preprocessing);
      }

      /** True: the groups' suites draw disjoint slices of the party's one source. */
      @Override
      public boolean runsInGroups() {
        return shared == null;
      }

      @Override
      public SessionGroups groups(int groups) {
        if (shared != null) {
          throw new IllegalStateException("a group's suites do not run in groups themselves");
        }
        return new SpdzGroups(config, groups);
      }
    };
  }

  /**
   * The suites of one engine that runs sessions in groups: one source of the party's preprocessing,
   * opened when the first of them is created, sliced by {@link SlicedPreprocessing}.
   */
  private static final class SpdzGroups implements SessionGroups {
    private final SpdzConfig config;
    private final int groups;
    private final SuiteFactory whole;
    private final SuiteFactory[] group;
    private SlicedPreprocessing sliced; // at the first suite's creation
    private int party; // whose suites these are: fixed by the first

    SpdzGroups(SpdzConfig config, int groups) {
      this.config = config;
      this.groups = groups;
      this.whole = factory(config, new Shared(this, -1));
      this.group = new SuiteFactory[groups];
      for (int g = 0; g < groups; g++) {
        group[g] = factory(config, new Shared(this, g));
      }
    }

    synchronized SlicedPreprocessing sliced(int party, int parties) {
      if (sliced == null) {
        SpdzPreprocessing source = config.preprocessing().open(config.field(), party, parties);
        sliced = new SlicedPreprocessing(source, party, parties, config.field().words(), groups);
        this.party = party;
      } else if (party != this.party) {
        throw new IllegalArgumentException(
            "the suites of one engine's session groups are all for P"
                + this.party
                + ", not P"
                + party);
      }
      return sliced;
    }

    @Override
    public SuiteFactory whole() {
      return whole;
    }

    @Override
    public SuiteFactory group(int g) {
      return group[g];
    }

    @Override
    public synchronized void beforeRun(int running) {
      if (sliced == null) {
        throw new IllegalStateException("no suite of these groups was created");
      }
      sliced.beforeRun(running);
    }
  }

  /** Which view of an engine's one source a factory's suites take: {@code group} −1 the whole. */
  private record Shared(SpdzGroups groups, int group) {
    SpdzPreprocessing view(int party, int parties) {
      SlicedPreprocessing s = groups.sliced(party, parties);
      return group < 0 ? s.whole() : s.group(group);
    }
  }

  @Override
  public Field field() {
    return field;
  }

  @Override
  public int myId() {
    return party;
  }

  @Override
  public int parties() {
    return parties;
  }

  // ---- set-up and checks ----

  /**
   * The set-up round: commitments to the first MAC check's seed ({@link CheckLedger#setup}) and the
   * parties' positions in their preprocessing ({@link PositionAgreement}), side by side.
   */
  @Override
  public RoundProtocol setup() {
    return new AllOf(List.of(ledger.setup(), new PositionAgreement(preprocessing, party, parties)));
  }

  /**
   * The MAC check to start now, if any ({@link CheckLedger#start}): a {@link MacCheck}, or a {@link
   * BroadcastCheck} when an opening waits and only input broadcasts are unchecked.
   */
  @Override
  public RoundProtocol check(boolean end) {
    CheckLedger.Check check = ledger.start(end);
    if (check == null) {
      return null;
    }
    if (check.batches().isEmpty()) {
      return new BroadcastCheck(ledger, check, party, parties);
    }
    return new MacCheck(exchange, ledger, preprocessing, macKeyShare, check);
  }

  // ---- local operations ----

  @Override
  public Shares constant(long[] values, int length) {
    return sharing.constant(values, length);
  }

  @Override
  public Shares add(Shares a, Shares b) {
    return sharing.add(a, b);
  }

  @Override
  public Shares sub(Shares a, Shares b) {
    return sharing.sub(a, b);
  }

  @Override
  public Shares negate(Shares a) {
    return sharing.negate(a);
  }

  @Override
  public Shares addConstant(Shares a, long[] c, int co) {
    return sharing.addConstant(a, c, co);
  }

  @Override
  public Shares scale(Shares a, long[] c, int co) {
    return sharing.scale(a, c, co);
  }

  @Override
  public Shares sum(Shares a) {
    return sharing.sum(a);
  }

  // ---- interactive operations: each gate gets its material and the collaborators it uses ----

  @Override
  public RoundProtocol input(int owner, long[] values, int length) {
    InputMasks masks = preprocessing.inputMasks(owner, length);
    return new SpdzInput(exchange, ledger, sharing, masks, owner, values);
  }

  /**
   * Inputs declared {@code bits}-bit are composed of {@code bits} authenticated bits each, so they
   * are in range whatever their owner sends ({@link SpdzRangeInput}); the three-argument {@link
   * #input(int, long[], int)} guarantees no range.
   */
  @Override
  public RoundProtocol input(int owner, long[] values, int length, int bits) {
    if (length == 0) {
      return input(owner, values, length);
    }
    InputMasks r = preprocessing.inputBits(owner, Math.multiplyExact(bits, length));
    SpdzRangeInput.Declared input = new SpdzRangeInput.Declared(owner, length, bits, r);
    return new SpdzRangeInput(exchange, ledger, sharing, pool, input, values);
  }

  @Override
  public RoundProtocol multiply(Shares a, Shares b) {
    Triples triples = preprocessing.triples(a.length);
    return new BeaverMultiply(exchange, ledger, pool, triples, a, b);
  }

  @Override
  public RoundProtocol open(Shares a, int receiver) {
    InputMasks masks = receiver < 0 ? null : preprocessing.inputMasks(receiver, a.length);
    return new SpdzOpen(exchange, ledger, sharing, a, receiver, masks);
  }

  // ---- material for input clients, outside the engine ----

  /**
   * {@code count} Beaver triples for input clients [DDN+16]: the servers open a triple's a, b and c
   * to one client only (their value shares, never the MAC shares), the client checks c = a·b and
   * masks its input with a and b, and the servers keep the authenticated shares to combine with
   * what the client sends back. A server that changed its share of a or b cannot fix c without
   * knowing the other factor, so a client that checked c = a·b holds the masks the MACs vouch for.
   *
   * <p>They come from the same stream as the engine's multiplications, after everything drawn so
   * far, so no gate ever uses them as well; like every draw they are recorded as used before they
   * are returned (the use record of {@link DealerFiles}), so no restart hands them out again. Draw
   * them only between runs of the engine that owns this suite, and in the same order at every
   * party: the k-th triple is then the same sharing everywhere.
   */
  public Triples triplesForClients(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("count (" + count + ") must be >= 0");
    }
    return preprocessing.triples(count);
  }

  @Override
  public RoundProtocol random(int length) {
    return RoundProtocol.finished(preprocessing.randomElements(length));
  }

  @Override
  public RoundProtocol randomBits(int length) {
    return RoundProtocol.finished(preprocessing.randomBits(length));
  }

  @Override
  public long materialWaitNanos() {
    return preprocessing.waitNanos();
  }
}
