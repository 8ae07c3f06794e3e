/*
 * softrnic's libibverbs.so.1: the bootstrap. The first verb called starts a JVM in the application's process
 * (JNI invocation API, -Xrs so that the application keeps its signals) and asks softrnic's Java side to fill the
 * table of entry points with FFM upcall stubs; every exported function (generated into ibverbs.c and rdmacm.c from
 * symbols.list) calls through that table. Where the JVM and softrnic's jar are: SOFTRNIC_JAVA_HOME and
 * SOFTRNIC_CLASSPATH, else the lines java_home= and class_path= of softrnic-cabi.conf beside this library (written
 * by `softrnic cabi-path`).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <jni.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cabi.h"

void *softrnic_cabi_slots[CABI_SLOTS];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int started;
static JavaVM *vm;

/* At the program's exit the engine closes its device, as the kernel closes a process's: a capture is complete. */
static void stop(void)
{
	JNIEnv *env;
	if ((*vm)->AttachCurrentThread(vm, (void **)&env, NULL) != JNI_OK)
		return;
	jclass cls = (*env)->FindClass(env, "org/softrnic/emulator/cabi/Cabi");
	jmethodID exit = cls ? (*env)->GetStaticMethodID(env, cls, "exit", "()V") : NULL;
	if (exit)
		(*env)->CallStaticVoidMethod(env, cls, exit);
	if ((*env)->ExceptionCheck(env))
		(*env)->ExceptionClear(env);
}

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "softrnic: cannot start the engine: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	abort(); /* a verbs library that cannot run its device has nothing to return that the caller would check */
}

/* A value from the environment, else from softrnic-cabi.conf beside this library. */
static char *setting(const char *env, const char *key, char *buf, size_t size)
{
	const char *v = getenv(env);
	if (v && *v) {
		snprintf(buf, size, "%s", v);
		return buf;
	}
	Dl_info info;
	if (!dladdr((void *)setting, &info) || !info.dli_fname)
		return NULL;
	char conf[PATH_MAX];
	snprintf(conf, sizeof(conf), "%s", info.dli_fname);
	char *slash = strrchr(conf, '/');
	snprintf(slash ? slash + 1 : conf, sizeof(conf) - (slash ? (size_t)(slash + 1 - conf) : 0), "softrnic-cabi.conf");
	FILE *f = fopen(conf, "r");
	if (!f)
		return NULL;
	char line[PATH_MAX + 32];
	char *found = NULL;
	size_t klen = strlen(key);
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, key, klen) && line[klen] == '=') {
			snprintf(buf, size, "%s", line + klen + 1);
			found = buf;
		}
	}
	fclose(f);
	return found;
}

static void start(void)
{
	char home[PATH_MAX], cp[8 * PATH_MAX], lib[PATH_MAX + 32], cpopt[8 * PATH_MAX + 32];
	if (!setting("SOFTRNIC_JAVA_HOME", "java_home", home, sizeof(home)))
		die("no JVM", "set SOFTRNIC_JAVA_HOME, or run `softrnic cabi-path` to write softrnic-cabi.conf");
	if (!setting("SOFTRNIC_CLASSPATH", "class_path", cp, sizeof(cp)))
		die("no softrnic jar", "set SOFTRNIC_CLASSPATH, or run `softrnic cabi-path` to write softrnic-cabi.conf");
	snprintf(lib, sizeof(lib), "%s/lib/server/libjvm.so", home);
	void *jvmlib = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
	if (!jvmlib)
		die("cannot load libjvm.so", dlerror());
	jint (*create)(JavaVM **, void **, void *) = (jint(*)(JavaVM **, void **, void *))dlsym(jvmlib, "JNI_CreateJavaVM");
	if (!create)
		die("libjvm.so has no JNI_CreateJavaVM", lib);
	snprintf(cpopt, sizeof(cpopt), "-Djava.class.path=%s", cp);
	JavaVMOption options[32] = {
		{ .optionString = cpopt },
		{ .optionString = "-Xrs" },
		{ .optionString = "--enable-native-access=ALL-UNNAMED" },
		{ .optionString = "-XX:+UseSerialGC" },
		{ .optionString = "-Xss2m" },
		/* the program's own thread spins on its CQ or its memory: a device thread spinning too takes the core it needs */
		{ .optionString = "-Dsoftrnic.spin_ns=0" },
	};
	int n = 6;
	/* SOFTRNIC_JAVA_OPTIONS: more options for the JVM, apart by spaces (-Dsoftrnic.spin_ns=0, -Xmx64m) */
	static char extra[4096];
	const char *more = getenv("SOFTRNIC_JAVA_OPTIONS");
	if (more) {
		snprintf(extra, sizeof(extra), "%s", more);
		for (char *save, *o = strtok_r(extra, " ", &save); o && n < 32; o = strtok_r(NULL, " ", &save))
			options[n++].optionString = o;
	}
	JavaVMInitArgs args = { .version = JNI_VERSION_21, .nOptions = n, .options = options, .ignoreUnrecognized = JNI_FALSE };
	JNIEnv *env;
	if (create(&vm, (void **)&env, &args) != JNI_OK)
		die("JNI_CreateJavaVM failed", cp);
	jclass cls = (*env)->FindClass(env, "org/softrnic/emulator/cabi/Cabi");
	jmethodID install = cls ? (*env)->GetStaticMethodID(env, cls, "install", "(JI)V") : NULL;
	if (!install) {
		(*env)->ExceptionDescribe(env);
		die("softrnic's jar has no org.softrnic.emulator.cabi.Cabi.install", cp);
	}
	(*env)->CallStaticVoidMethod(env, cls, install, (jlong)(intptr_t)softrnic_cabi_slots, (jint)CABI_SLOTS);
	if ((*env)->ExceptionCheck(env)) {
		(*env)->ExceptionDescribe(env);
		die("the engine failed to start", NULL);
	}
	atexit(stop);
	started = 1;
}

/* The table, the engine started first: what librdmacm's entry points call through too. */
void **softrnic_cabi_table(void)
{
	if (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
		pthread_once(&once, start);
	return softrnic_cabi_slots;
}

/* An entry point the engine does not serve: said once, then the failure its caller checks for. */
void softrnic_cabi_missing(const char *name)
{
	fprintf(stderr, "softrnic: %s is not supported by softrnic's libibverbs/librdmacm\n", name);
	errno = EOPNOTSUPP;
}
