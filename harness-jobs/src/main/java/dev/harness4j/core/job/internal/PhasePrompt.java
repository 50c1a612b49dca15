package dev.harness4j.core.job.internal;

import dev.harness4j.core.job.PhaseSpec;
import java.util.List;

/** A phase's prompt: the next-phase notes of the phases before it, then its own task. */
final class PhasePrompt {
    private PhasePrompt() {}

    /** The prompt as the phase's run gets it; the phase's own prompt alone when no phase before it left notes. */
    static String frame(JobBook book, PhaseSpec phase) {
        List<String> before = book.plan().ancestorsOf(phase.id());
        StringBuilder notes = new StringBuilder();
        for (String id : before) {
            PhaseBook p = book.phase(id);
            if (p != null && p.notes() != null && !p.notes().isBlank()) {
                notes.append("## Notes from phase \"").append(id).append("\"\n").append(p.notes().strip()).append("\n\n");
            }
        }
        if (notes.length() == 0) {
            return phase.prompt();
        }
        return "This is phase \"" + phase.id() + "\" of a multi-phase job; the work of the phases before it is "
                + "already committed in this repository. They left these notes for you:\n\n" + notes
                + "## Your task in this phase\n" + phase.prompt();
    }
}
