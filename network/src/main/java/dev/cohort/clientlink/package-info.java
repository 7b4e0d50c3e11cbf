/**
 * The client link: input clients (devices) connect to the compute servers (the parties) over TLS
 * 1.3, on an address of each server's own, separate from the mesh, hand over length-prefixed
 * frames, and leave.
 *
 * <pre>{@code
 * Certificates.generate(keys, 3);                 // once: the CA and the parties' keys
 * Certificates.generateClients(keys, 1000);       // and the clients' (cohort keys --clients)
 * try (ClientLinkServer server =
 *     ClientLinkServer.start(bind, TlsIdentity.load(keys, 0), ClientLinkOptions.defaults(), h)) {
 *   // h.connected(client), h.message(client, payload) on event-loop threads; server.send(...)
 * }
 * try (ClientLink link = ClientLink.connect(servers, TlsIdentity.loadClient(keys, 7),
 *     ClientLinkOptions.defaults(), sharedGroupOrNull)) {
 *   link.send(0, request);
 *   byte[] answer = link.receive(0, Duration.ofSeconds(5));
 * }
 * }</pre>
 *
 * <p>Who may connect is settled in the TLS handshake: a server accepts only input client
 * certificates of the deployment's CA ({@code cohort-client-J}, client authentication only), and a
 * client accepts at server i's address only party i's certificate. The client's id is its
 * certificate's; one connection per id. The mesh refuses client certificates ({@code
 * dev.cohort.transport.PeerAdmission}).
 *
 * <p>It sits on {@link dev.cohort.transport} (failures, refusal log, TLS) beside the mesh's
 * transports and imports neither.
 */
package dev.cohort.clientlink;
