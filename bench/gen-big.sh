#!/bin/sh
# gen-big.sh DIR: builds DIR/big, a ~100 MB binary whose big_function has
# about 10,000 instructions (two per statement), called in a loop forever.
set -eu
dir=$1
{
	echo '#include <unistd.h>'
	echo 'volatile int sink;'
	echo '/* 100 MB of initialized data make the file large. */'
	echo 'const char ballast[100 << 20] = { 1 };'
	echo '__attribute__((noinline)) void big_function(int n)'
	echo '{'
	i=0
	while [ $i -lt 5000 ]; do
		echo "	sink = n + $i;"
		i=$((i + 1))
	done
	echo '}'
	echo 'int main(void) { for (;;) big_function(ballast[0]); }'
} >"$dir/big.c"
cc -O1 -g -o "$dir/big" "$dir/big.c"
