/**
 * TLS for both transports: {@link dev.cohort.transport.tls.Certificates} generates and reads a
 * deployment's PEM files (a CA, and per party a key and a certificate whose CN, {@code
 * cohort-party-<i>}, binds the party id), {@link dev.cohort.transport.tls.TlsIdentity} holds one
 * party's material and builds the TLS 1.3 contexts of both roles with mutual authentication (a JDK
 * {@code SSLContext} for the socket transport, layered over a socket by {@link
 * dev.cohort.transport.tls.JdkTls}, and Netty {@code SslContext}s for the Netty transport), {@link
 * dev.cohort.transport.tls.TlsProvider} chooses the implementation (the JDK's or BoringSSL), and
 * {@code FixedKeyManager} serves the one key without a throwaway keystore.
 *
 * <p>Invariant: every context requires the peer's certificate, chained to the deployment's CA;
 * private key files are readable by their owner only (where POSIX permissions apply).
 */
package dev.cohort.transport.tls;
