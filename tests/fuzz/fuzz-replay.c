/* The fuzz targets' main() outside libFuzzer (make check): replays every
 * file of the directories and files named on the command line through
 * LLVMFuzzerTestOneInput, so each seed corpus runs as a plain test.  With
 * libFuzzer (make fuzz, -DCYCTOP_LIBFUZZER) this file is not
 * compiled: libFuzzer has its own main(). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	for (;;) {
		if (n == cap) {
			unsigned char *p = realloc(buf, cap = cap ? cap * 2 : 65536);
			if (!p)
				abort();
			buf = p;
		}
		size_t k = fread(buf + n, 1, cap - n, f);
		if (k == 0)
			break;
		n += k;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int replay(const char *path, int *count)
{
	struct stat st;
	DIR *dir;
	struct dirent *e;
	int rc = 0;

	if (stat(path, &st) < 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return replay_file(path);
	}
	dir = opendir(path);
	if (!dir) {
		perror(path);
		return -1;
	}
	while ((e = readdir(dir))) {
		char sub[4096];
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (stat(sub, &st) == 0 && S_ISREG(st.st_mode)) {
			(*count)++;
			rc |= replay_file(sub);
		}
	}
	closedir(dir);
	return rc;
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	int count = 0, rc = 0;

	for (int i = 1; i < argc; i++)
		rc |= replay(argv[i], &count);
	printf("%s: replayed %d inputs\n", name, count);
	return rc || count == 0 ? 1 : 0;
}
