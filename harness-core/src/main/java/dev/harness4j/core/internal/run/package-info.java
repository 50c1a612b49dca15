/** The run's chain of stages at work: the chain itself, the stages users do not configure, and what they share. */
package dev.harness4j.core.internal.run;
