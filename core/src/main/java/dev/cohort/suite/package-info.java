/**
 * The suite SPI: how a protocol suite shares, combines and opens secrets for the engine.
 *
 * <p>{@link dev.cohort.suite.SuiteFactory} creates one party's {@link dev.cohort.suite.Suite}. The
 * engine hands a suite whole batches of gates of one kind as {@link dev.cohort.suite.Shares}
 * columns (never an object per element): local operations return new shares at once, interactive
 * ones a {@link dev.cohort.suite.RoundProtocol} that writes into the round's {@link
 * dev.cohort.suite.Outbox} and reads its {@link dev.cohort.suite.Inbox}, so all protocols of a
 * round share one frame per peer (MP-SPDZ's prepare/exchange/finalize). {@link
 * dev.cohort.suite.AllOf} and {@link dev.cohort.suite.StagedProtocol} compose protocols side by
 * side and one after another; {@link dev.cohort.suite.PolynomialSuite} and {@link
 * dev.cohort.suite.ComposedMasks} are shared by the suites that fit them.
 *
 * <p>Invariant: a suite never sees the producer tree or the engine; it gets batches of gates and a
 * round, and packed field elements in {@link dev.cohort.field.Field} layout. The suites in {@code
 * suite-bgw} and {@code suite-spdz} and the insecure {@code plaintext} oracle implement it; the
 * suite contract test in core's test-jar holds them to it.
 */
package dev.cohort.suite;
