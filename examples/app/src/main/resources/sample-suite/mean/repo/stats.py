def mean(xs):
    return sum(xs) / (len(xs) - 1)
