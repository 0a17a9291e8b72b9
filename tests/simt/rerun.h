// rerun.h — for a program that checks a file simt writes at exit: it runs
// itself again as "PROG child" with environment variable `var` naming a
// file, and reads what that run left there.
#ifndef SIMT_TEST_RERUN_H
#define SIMT_TEST_RERUN_H

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

// The file's text in *text; false, with a FAIL line, when the run failed
// or left no file.  `quiet` sends the run's stderr (simt's own report
// lines) to /dev/null.
static bool rerun_child(const char *argv0, const char *var, const char *path,
                        bool quiet, std::string *text)
{
    std::string cmd = std::string(var) + "=" + path + " " + argv0 + " child" +
                      (quiet ? " 2>/dev/null" : "");
    unlink(path);
    if (system(cmd.c_str()) != 0) {
        fprintf(stderr, "FAIL the child run failed\n");
        return false;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "FAIL the child run wrote no %s\n", path);
        return false;
    }
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        text->append(buf, n);
    fclose(f);
    unlink(path);
    return true;
}

#endif
