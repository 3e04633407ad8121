import FuzzDriver

runFuzzer(fuzz)
