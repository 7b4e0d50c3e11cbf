/**
 * TLS for both transports and the client link: {@link dev.cohort.transport.tls.Certificates}
 * generates and reads a deployment's PEM files (a CA; per party a key and a certificate whose CN,
 * {@code cohort-party-<i>}, binds the party id; per input client the same with {@code
 * cohort-client-<j>}, for client authentication only), {@link dev.cohort.transport.tls.TlsIdentity}
 * holds one party's or client's material and builds the TLS 1.3 contexts of both roles with mutual
 * authentication (a JDK {@code SSLContext} for the socket transport, layered over a socket by
 * {@link dev.cohort.transport.tls.JdkTls}, and Netty {@code SslContext}s for the Netty transport
 * and the client link), {@link dev.cohort.transport.tls.TlsProvider} chooses the implementation
 * (the JDK's or BoringSSL), {@code FixedKeyManager} serves the one key without a throwaway
 * keystore, and {@code RoleTrustManager} narrows the CA's trust to the peers one side of the client
 * link may have.
 *
 * <p>Invariant: every context requires the peer's certificate, chained to the deployment's CA;
 * private key files are readable by their owner only (where POSIX permissions apply).
 */
package dev.cohort.transport.tls;
