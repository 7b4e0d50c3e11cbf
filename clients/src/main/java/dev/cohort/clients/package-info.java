/**
 * Input-only clients: many devices secret-share their inputs to the compute servers and leave.
 * {@link dev.cohort.clients.Client} is a device's side, {@link dev.cohort.clients.InputServer} a
 * server's; a session's validated inputs reach any computation through {@code
 * Numeric.clientInputs}.
 *
 * <p>Over BGW (semi-honest servers, malicious clients) a client deals Shamir shares of its bits
 * ({@link dev.cohort.clients.BgwSubmissions}) and the servers check them in one broadcast round
 * ({@link dev.cohort.clients.BgwSessions}). Over SPDZ (any number of malicious servers but one,
 * malicious clients) the servers open Beaver triples to the client, which checks them and masks
 * each bit with both factors of one triple [DDN+16] ({@link dev.cohort.clients.SpdzSubmissions});
 * the servers grant the triples together ({@link dev.cohort.clients.MaskRounds}), fix the
 * candidates and a joint seed in two rounds, and check every bit with one MAC-checked opening per
 * client ({@link dev.cohort.clients.SpdzSessions}, {@link dev.cohort.clients.SpdzValidation}).
 * Either way a submission that fails is left out of its session and counted by reason ({@link
 * dev.cohort.clients.Exclusion}), never summed.
 *
 * <h2>References</h2>
 *
 * <ul>
 *   <li>[DDN+16] Ivan Damgård, Kasper Damgård, Kurt Nielsen, Peter Sebastian Nordholt, Tomas Toft:
 *       Confidential benchmarking based on multiparty computation. Financial Cryptography 2016.
 * </ul>
 */
package dev.cohort.clients;
