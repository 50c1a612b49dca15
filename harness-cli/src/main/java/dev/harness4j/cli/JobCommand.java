package dev.harness4j.cli;

import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.job.JobEvent;
import dev.harness4j.core.job.JobPlan;
import dev.harness4j.core.job.JobRunner;
import dev.harness4j.core.job.JobState;
import dev.harness4j.core.job.JobStatus;
import dev.harness4j.core.job.PhaseStatus;
import dev.harness4j.core.provider.Providers;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code job run | status | resume | pause | cancel}: multi-phase jobs from a JSON plan file
 * (see {@link JobPlan#read(Path)}). {@code run} and {@code resume} block until the job completes
 * (exit 0), is paused (exit 0, said), fails or is cancelled (exit 1); bad input exits 2.
 */
@Command(name = "job", mixinStandardHelpOptions = true, description = "Multi-phase jobs: run, status, resume, pause, cancel.",
        subcommands = {JobCommand.Run.class, JobCommand.Status.class, JobCommand.Resume.class, JobCommand.Pause.class,
                JobCommand.Cancel.class})
final class JobCommand implements Runnable {
    /**
     * How long {@code job run} keeps each phase run's workspace when a phase continues a session:
     * the time a job may wait between two phases (a quota wait, say). {@code job resume} keeps
     * none, but continues a session still kept by {@code job run}.
     */
    static final java.time.Duration KEEP_SESSIONS = java.time.Duration.ofDays(1);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The runner and job runner every subcommand uses, on the state dir's providers. */
    abstract static class Base implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Mixin
        Harness4j.StateDirOption state = new Harness4j.StateDirOption();
        @Mixin
        WireStopOptions stops = new WireStopOptions();

        PrintWriter out() {
            return spec.commandLine().getOut();
        }

        @Override
        public Integer call() {
            Path stateDir = state.resolve();
            PrintWriter out = out();
            Providers providers = Providers.fromStateDir(stateDir);
            HarnessRunner.Builder b = stops.apply(HarnessRunner.builder()).stateDir(stateDir).providers(providers);
            if (keepsSessions()) {
                b.keepWorkspace(KEEP_SESSIONS); // a continue_session phase follows up the phase before
            }
            try (HarnessRunner runner = b.build();
                    JobRunner jobs = JobRunner.builder(runner).listener(e -> print(out, e)).healthChecks(providers)
                            .build()) {
                return call(jobs, out);
            }
        }

        abstract int call(JobRunner jobs, PrintWriter out);

        /** Whether the runner keeps workspaces for a {@code continue_session} phase; default no. */
        boolean keepsSessions() {
            return false;
        }

        static void print(PrintWriter out, JobEvent e) {
            out.printf("%s %-12s %s%s%s%n", e.at(), e.kind().name().toLowerCase().replace('_', '-'),
                    e.phase() != null ? "[" + e.phase() + "] " : "", e.state() != null ? e.state() + " " : "",
                    e.detail() != null ? e.detail() : "");
            out.flush();
        }

        static int ended(JobStatus s, PrintWriter out) {
            printStatus(s, out);
            if (s.state() == JobState.PAUSED) {
                out.println("paused; go on with: harness4j job resume " + s.jobId());
            }
            return s.state() == JobState.COMPLETED || s.state() == JobState.PAUSED ? Harness4j.OK : Harness4j.FAILED;
        }

        static void printStatus(JobStatus s, PrintWriter out) {
            out.printf("job %s: %s%s%n", s.jobId(), s.state().wireName(),
                    s.reason() != null ? " (" + s.reason() + ")" : "");
            if (s.resumeAt() != null) {
                out.printf("  resumes at %s%n", s.resumeAt());
            }
            out.printf("  branch %s in %s, head %s%n", s.branch(), s.repository(), s.head());
            for (PhaseStatus p : s.phases()) {
                out.printf("  %-16s %-10s %s/%s%s runs=%d%s%n", p.id(), p.state().wireName(), p.harness(), p.provider(),
                        p.model() != null ? "/" + p.model() : "", p.runIds().size(),
                        p.commit() != null ? " commit " + p.commit().substring(0, Math.min(12, p.commit().length())) : "");
            }
        }
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Runs a job from a plan file (JSON; unknown fields are refused) until it ends or is paused.")
    static final class Run extends Base {
        @Parameters(index = "0", paramLabel = "PLAN", description = "the job plan file (JSON)")
        Path plan;
        @Option(names = "--harness", description = "the job's harness instead of the plan's (phases that name one keep it)")
        String harness;
        @Option(names = "--provider", description = "the job's provider instead of the plan's (phases that name one"
                + " keep it); without --model, the provider's default model")
        String provider;
        @Option(names = "--model", description = "the job's model instead of the plan's (phases that name one keep it)")
        String model;

        @Override
        boolean keepsSessions() {
            return JobPlan.read(plan).phases().stream().anyMatch(dev.harness4j.core.job.PhaseSpec::continueSession);
        }

        @Override
        int call(JobRunner jobs, PrintWriter out) {
            JobPlan p = JobPlan.read(plan);
            if (harness != null || provider != null || model != null) {
                p = new JobPlan(p.id(), p.baseline(), p.ref(), harness != null ? harness : p.harness(),
                        provider != null ? provider : p.provider(),
                        model != null ? model : provider != null ? null : p.model(), p.phases(), p.maxQuotaWait(),
                        p.push(), p.task(), p.healthCheckTimeout());
            }
            return ended(jobs.run(p), out);
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Shows a job, or lists every job.")
    static final class Status extends Base {
        @Parameters(index = "0", arity = "0..1", paramLabel = "JOB", description = "the job's id (default: every job)")
        String jobId;

        @Override
        int call(JobRunner jobs, PrintWriter out) {
            if (jobId != null) {
                printStatus(jobs.status(jobId), out);
                return Harness4j.OK;
            }
            for (String id : jobs.jobIds()) {
                JobStatus s = jobs.status(id);
                out.printf("%-40s %s%n", id, s.state().wireName());
            }
            return Harness4j.OK;
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true,
            description = "Goes on with a paused or crashed job from its checkpoint.")
    static final class Resume extends Base {
        @Parameters(index = "0", paramLabel = "JOB")
        String jobId;

        @Override
        int call(JobRunner jobs, PrintWriter out) {
            return ended(jobs.resume(jobId), out);
        }
    }

    @Command(name = "pause", mixinStandardHelpOptions = true,
            description = "Pauses a job (its running phase is stopped and will run again on resume).")
    static final class Pause extends Base {
        @Parameters(index = "0", paramLabel = "JOB")
        String jobId;

        @Override
        int call(JobRunner jobs, PrintWriter out) {
            jobs.pause(jobId);
            out.println("pause of job " + jobId + " asked; now: " + jobs.status(jobId).state().wireName());
            return Harness4j.OK;
        }
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true, description = "Cancels a job (its running phase is stopped).")
    static final class Cancel extends Base {
        @Parameters(index = "0", paramLabel = "JOB")
        String jobId;

        @Override
        int call(JobRunner jobs, PrintWriter out) {
            jobs.cancel(jobId);
            out.println("cancel of job " + jobId + " asked; now: " + jobs.status(jobId).state().wireName());
            return Harness4j.OK;
        }
    }
}
