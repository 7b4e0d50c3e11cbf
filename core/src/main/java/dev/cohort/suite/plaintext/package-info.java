/**
 * The plaintext suite: <b>INSECURE</b>, every party holds every value in the clear. It is the
 * oracle the real suites are tested against: the same computations through the same engine with the
 * simplest possible gates (an input is broadcast by its owner in one round, everything else is
 * local, random values come from a PRG seeded alike at every party).
 */
package dev.cohort.suite.plaintext;
