package org.softrnic.emulator.junit;

import java.lang.reflect.Parameter;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.platform.commons.support.AnnotationSupport;
import org.softrnic.emulator.soft.SoftFabric;
import org.softrnic.emulator.soft.SoftRnic;
import org.softrnic.verbs.RdmaContext;

/**
 * The JUnit 5 extension behind {@link SoftRnicTest}: a {@link SoftRnicRun} per test, its parameters, the
 * failure message that names the seed and the kept packets, and the leak check at the end.
 */
public final class SoftRnicExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver, TestExecutionExceptionHandler {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(SoftRnicExtension.class);
    private static final List<Class<?>> RESOLVED = List.of(RdmaContext.class, SoftRnic.class, SoftFabric.class, SoftRnicRun.class);

    @Override
    public void beforeEach(ExtensionContext context) {
        SoftRnicTest shape = find(context, SoftRnicTest.class);
        Faults faults = find(context, Faults.class);
        SoftRnicRun run = new SoftRnicRun(context.getRequiredTestClass().getName(), context.getRequiredTestMethod().getName(),
                shape, faults);
        context.getStore(NS).put(SoftRnicRun.class, run);
        if (faults != null && run.fabric() == null) {
            // a real device's link is not softrnic's to shape: the test would pass without the faults it is about
            org.junit.jupiter.api.Assumptions.abort("@Faults needs the soft provider; " + run.deviceName()
                    + " is a real device, whose link softrnic cannot shape, so this test is skipped, not passed without its faults");
        }
    }

    /** The annotation on the method, else on its class. */
    private static <A extends java.lang.annotation.Annotation> A find(ExtensionContext context, Class<A> type) {
        return AnnotationSupport.findAnnotation(context.getRequiredTestMethod(), type)
                .or(() -> AnnotationSupport.findAnnotation(context.getRequiredTestClass(), type))
                .orElse(type == SoftRnicTest.class ? Defaults.class.getAnnotation(type) : null);
    }

    @SoftRnicTest
    private static final class Defaults {
    }

    private static SoftRnicRun run(ExtensionContext context) {
        return context.getStore(NS).get(SoftRnicRun.class, SoftRnicRun.class);
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
        return RESOLVED.contains(p.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext e) {
        SoftRnicRun run = run(e);
        Class<?> type = p.getParameter().getType();
        if (type == SoftRnicRun.class) return run;
        if (run.fabric() == null && type != RdmaContext.class) {
            throw new ParameterResolutionException("a " + type.getSimpleName() + " parameter needs the soft provider;"
                    + " with -Dsoftrnic.provider=ibverbs take RdmaContext parameters");
        }
        if (type == SoftFabric.class) return run.fabric();
        int index = 0; // the nth parameter of this type gets the nth device
        Parameter[] all = p.getDeclaringExecutable().getParameters();
        for (int i = 0; i < p.getIndex(); i++) if (all[i].getType() == type) index++;
        try {
            return type == SoftRnic.class ? run.device(index) : run.context(index);
        } catch (IndexOutOfBoundsException ex) {
            throw new ParameterResolutionException("parameter " + p.getIndex() + " asks for device " + index
                    + ", but @SoftRnicTest(devices = ...) made fewer", ex);
        }
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        SoftRnicRun run = run(context);
        // an assumption that did not hold skips the test: it is not a failure to explain
        if (run == null || failure instanceof org.opentest4j.TestAbortedException) throw failure;
        if (failure instanceof Error && !(failure instanceof AssertionError)) throw failure; // the JVM's own trouble, as it is
        StringBuilder why = new StringBuilder(String.valueOf(failure.getMessage()));
        for (String refusal : run.refusals()) why.append("\nsoftrnic: ").append(refusal);
        if (run.fabric() != null && !run.fabric().isVirtual()) {
            // threads and the wall clock order a threaded run: the seed fixes its faults, not its interleaving
            why.append("\nsoftrnic: seed ").append(run.seed()).append(" drew the faults; the threaded fabric's timing is the machine's,")
                    .append(" so ").append(run.replay()).append(" runs it again but not always the same way");
        } else {
            why.append("\nsoftrnic: seed ").append(run.seed()).append("; replay with ").append(run.replay());
        }
        if (run.packetsTraced() == 0) {
            why.append("\nsoftrnic: no packet was sent in this run");
        } else if (run.keepPackets()) {
            why.append("\nsoftrnic: the run's packets are in ").append(run.capture()).append(" (softrnic ladder draws it), listed in ")
                    .append(run.listing());
        }
        if (!(failure instanceof AssertionError)) throw new ExplainedError(why.toString(), failure); // still an error, not a failure
        AssertionError told = new AssertionError(why.toString(), failure);
        told.setStackTrace(failure.getStackTrace());
        throw told;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        SoftRnicRun run = run(context);
        if (run == null) return;
        List<String> leaked = run.finish();
        if (!leaked.isEmpty() && context.getExecutionException().isEmpty()) {
            throw new AssertionError("softrnic: the test left open: " + String.join(", ", leaked)
                    + " (close each, last made first, as ibv_destroy_* must be called)");
        }
    }
}
