package dev.harness4j.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Limits;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.job.JobEvent;
import dev.harness4j.core.job.JobPlan;
import dev.harness4j.core.job.JobRunner;
import dev.harness4j.core.job.JobState;
import dev.harness4j.core.job.JobStatus;
import dev.harness4j.core.job.PhaseSpec;
import dev.harness4j.core.job.PhaseState;
import dev.harness4j.core.job.PhaseStatus;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Multi-phase jobs with the real {@code claude} binary against the scripted model server. */
@RealCli
class ClaudeCodeJobEndToEndTest {
    private static final String KEY = "sk-test-claude-jobs";
    private static ScriptedModelServer server;

    @TempDir Path tmp;
    private HarnessRunner runner;
    private JobRunner jobs;
    private Path baseline;
    private final List<JobEvent> events = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startServer() throws Exception {
        Clis.require(new ClaudeCodeHarness());
        server = ScriptedModelServer.start().requireKey(KEY);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        baseline = GitRepos.withReadme(tmp.resolve("baseline"));
        runner = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .providers(provider("scripted"), provider("scripted-backup")).build();
        jobs = JobRunner.builder(runner).listener(events::add).build();
    }

    @AfterEach
    void tearDown() {
        jobs.close();
        runner.close();
    }

    private static ProviderResolver provider(String name) {
        return new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String provider, String model) {
                return provider.equals(name) ? Optional.of(new ResolvedProvider(name, EnumSet.of(ApiStyle.ANTHROPIC),
                        server.baseUrl(), Secret.of(KEY), AuthScheme.API_KEY, model)) : Optional.empty();
            }

            @Override
            public Set<String> providerNames() {
                return Set.of(name);
            }
        };
    }

    private static PhaseSpec phase(String id, String model) {
        return PhaseSpec.builder(id, "Do the scripted task of phase " + id + ".").model(model)
                .limits(Limits.NONE.withMaxRuntime(Duration.ofMinutes(2)))
                .option(ClaudeCodeHarness.OPTION_MAX_RETRIES, "0").build();
    }

    private static String commit(String file, String message) {
        return "git add " + file + " && git -c user.name=Agent -c user.email=agent@example.com commit -qm '" + message + "'";
    }

    private List<String> history(JobStatus s) throws Exception {
        Process p = new ProcessBuilder("git", "-C", s.repository().toString(), "log", "--reverse", "--format=%s",
                s.branch()).redirectErrorStream(true).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.getInputStream().transferTo(out);
        assertThat(p.waitFor()).isZero();
        return List.of(out.toString().strip().split("\n"));
    }

    @Test
    void threePhasesCommitEachOnceAndPhaseOnesNotesReachPhaseTwosRequest() throws Exception {
        String report = "{\"completed\": true, \"committed\": true, \"commit_message\": \"phase one\","
                + " \"summary\": \"wrote parser.txt\", \"next_phase_notes\": \"NOTE-4711: the parser is in parser.txt\","
                + " \"blockers\": []}";
        server.script("job-one", Scenario.builder().writeFile("parser.txt", "parse\n")
                .shell(commit("parser.txt", "phase one")).writeFile(".harness4j/report.json", report)
                .say("Phase one done.").build());
        server.script("job-two", Scenario.builder().writeFile("two.txt", "two\n").shell(commit("two.txt", "phase two"))
                .say("Phase two done.").build());
        server.script("job-three", Scenario.builder().writeFile("three.txt", "three\n")
                .shell(commit("three.txt", "phase three")).say("Phase three done.").build());

        JobStatus s = jobs.run(JobPlan.builder(baseline).id("claude-three").harness(ClaudeCodeHarness.ID)
                .provider("scripted").phase(phase("one", "job-one")).phase(phase("two", "job-two"))
                .phase(phase("three", "job-three")).build());

        assertThat(s.state()).as(s.toString()).isEqualTo(JobState.COMPLETED);
        assertThat(s.phases()).extracting(PhaseStatus::state).containsOnly(PhaseState.COMPLETED);
        assertThat(history(s)).containsExactly("init", "phase one", "phase two", "phase three");
        assertThat(Files.exists(s.dir().resolve("summary.json"))).isTrue();
        assertThat(s.phase("one").resultDir().resolve("diff.patch")).exists();

        assertThat(s.phase("one").nextPhaseNotes()).as("phase one's self-report notes").contains("NOTE-4711");
        assertThat(server.requests()).filteredOn(r -> "job-two".equals(r.model()) && r.kind() == RecordedRequest.Kind.TURN)
                .first().satisfies(r -> assertThat(r.body()).contains("NOTE-4711: the parser is in parser.txt"));
        // phase one's own first request (its prompt) carries no notes: they come from its report, written later
        assertThat(server.requests()).filteredOn(r -> "job-one".equals(r.model()) && r.kind() == RecordedRequest.Kind.TURN)
                .first().satisfies(r -> assertThat(r.body()).doesNotContain("NOTE-4711"));
    }

    @Test
    void a429WithRetryAfterPausesTheJobWhichResumesByItselfWithoutConsumingAnAttempt() throws Exception {
        server.script("job-a", Scenario.builder().writeFile("a.txt", "a\n").say("Done.").build());
        server.script("job-429", Scenario.builder().failRateLimited(Duration.ofSeconds(3))
                .writeFile("b.txt", "b\n").say("Done.").build());

        JobStatus s = jobs.run(JobPlan.builder(baseline).harness(ClaudeCodeHarness.ID).provider("scripted")
                .phase(phase("a", "job-a")).phase(phase("b", "job-429")).build());

        assertThat(s.state()).as(s.toString()).isEqualTo(JobState.COMPLETED);
        assertThat(s.phase("b").attempts()).isZero();
        assertThat(s.phase("b").runIds()).hasSize(2);
        assertThat(events).filteredOn(e -> e.kind() == JobEvent.Kind.JOB_STATE).extracting(JobEvent::state)
                .containsExactly("created", "running", "paused-quota", "running", "completed");
        JobEvent paused = events.stream().filter(e -> "paused-quota".equals(e.state())).findFirst().orElseThrow();
        JobEvent resumed = events.stream().filter(e -> "running".equals(e.state()) && e.at().isAfter(paused.at()))
                .findFirst().orElseThrow();
        assertThat(Duration.between(paused.at(), resumed.at())).isBetween(Duration.ofMillis(1500), Duration.ofSeconds(30));
    }

    @Test
    void aLongResetSwitchesThePhaseToItsFallbackProvider() throws Exception {
        server.script("job-long", Scenario.builder().failRateLimited(Duration.ofHours(2))
                .writeFile("c.txt", "c\n").say("Done.").build());

        JobStatus s = jobs.run(JobPlan.builder(baseline).harness(ClaudeCodeHarness.ID).provider("scripted")
                .maxQuotaWait(Duration.ofMinutes(1))
                .phase(PhaseSpec.builder("c", "Do it.").model("job-long").fallback("scripted-backup", null)
                        .limits(Limits.NONE.withMaxRuntime(Duration.ofMinutes(2)))
                        .option(ClaudeCodeHarness.OPTION_MAX_RETRIES, "0").build()).build());

        assertThat(s.state()).as(s.toString()).isEqualTo(JobState.COMPLETED);
        assertThat(s.phase("c").provider()).isEqualTo("scripted-backup");
        assertThat(events).filteredOn(e -> e.kind() == JobEvent.Kind.PROVIDER_SWITCH).singleElement()
                .satisfies(e -> assertThat(e.detail()).contains("from scripted/job-long to scripted-backup/job-long"));
        assertThat(events).noneMatch(e -> "paused-quota".equals(e.state()));
    }
}
